// The measurement behind docs/Benchmarks.md, "Round trips and the two cores": how long one round
// trip to a local PostgreSQL server takes (a prepared `SELECT $1::int8`, sent and its row read,
// 2,000 times after 200 untimed), with the client and the server backend on the same core, on
// different cores, and wherever the scheduler puts them. It pins itself and its own backend
// (sched_setaffinity on both: run it as the server's user or as root), so no setting of the server
// changes. Prints the median and the 10th and 90th percentiles of each placement, in microseconds,
// and the client's CPU per round trip.
//
//     cc -O2 -o /tmp/postgres-round-trip Benchmarks/Probes/postgres-round-trip.c -I$(pg_config --includedir) -lpq
//     /tmp/postgres-round-trip "host=/tmp/sock dbname=postgres"
//
// The server must run on this machine (the backend is pinned by its process id).
#define _GNU_SOURCE
#include <libpq-fe.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>

enum { warmup = 200, count = 2000 };

static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec / 1e9; }
static double cpu(void) { struct rusage r; getrusage(RUSAGE_SELF, &r); return r.ru_utime.tv_sec + r.ru_utime.tv_usec / 1e6 + r.ru_stime.tv_sec + r.ru_stime.tv_usec / 1e6; }
static int compare(const void *a, const void *b) { double x = *(const double *)a, y = *(const double *)b; return x < y ? -1 : x > y; }

// Pins `pid` (0: this process) to `cpu`, or to every core when `cpu` is negative.
static void pin(int pid, int cpu, int cores) {
    cpu_set_t set; CPU_ZERO(&set);
    for (int i = 0; i < cores; i++) if (cpu < 0 || i == cpu) CPU_SET(i, &set);
    if (sched_setaffinity(pid, sizeof set, &set) != 0) { perror("sched_setaffinity"); exit(1); }
}

static double trip(PGconn *c, long value) {
    char text[32]; snprintf(text, sizeof text, "%ld", value);
    const char *values[1] = { text };
    double start = now();
    PGresult *r = PQexecPrepared(c, "trip", 1, values, NULL, NULL, 0);
    double elapsed = now() - start;
    if (PQresultStatus(r) != PGRES_TUPLES_OK || strcmp(PQgetvalue(r, 0, 0), text) != 0) { fprintf(stderr, "%s", PQerrorMessage(c)); exit(1); }
    PQclear(r);
    return elapsed;
}

int main(int argc, char **argv) {
    PGconn *c = PQconnectdb(argc > 1 ? argv[1] : "");
    if (PQstatus(c) != CONNECTION_OK) { fprintf(stderr, "%s", PQerrorMessage(c)); return 1; }
    PGresult *r = PQprepare(c, "trip", "SELECT $1::int8", 1, NULL);
    if (PQresultStatus(r) != PGRES_COMMAND_OK) { fprintf(stderr, "%s", PQerrorMessage(c)); return 1; }
    PQclear(r);
    int backend = PQbackendPID(c);
    int cores = (int)sysconf(_SC_NPROCESSORS_ONLN);
    struct { const char *name; int client, server; } placements[] = {
        { "same core", 0, 0 }, { "different cores", 1, 0 }, { "unpinned", -1, -1 },
    };
    static double times[count];
    printf("%-16s %10s %10s %10s %12s\n", "placement", "p10 µs", "median µs", "p90 µs", "client CPU µs");
    for (size_t p = 0; p < sizeof placements / sizeof *placements; p++) {
        if (cores < 2 && placements[p].client == 1) continue;
        pin(0, placements[p].client, cores);
        pin(backend, placements[p].server, cores);
        for (int i = 0; i < warmup; i++) trip(c, i);
        double cpuStart = cpu();
        for (int i = 0; i < count; i++) times[i] = trip(c, i);
        double cpuPerTrip = (cpu() - cpuStart) / count;
        qsort(times, count, sizeof *times, compare);
        printf("%-16s %10.1f %10.1f %10.1f %12.1f\n", placements[p].name, times[count / 10] * 1e6, times[count / 2] * 1e6,
               times[count * 9 / 10] * 1e6, cpuPerTrip * 1e6);
    }
    PQfinish(c);
    return 0;
}
