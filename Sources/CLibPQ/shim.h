#ifndef CLIBPQ_SHIM_H
#define CLIBPQ_SHIM_H
// Debian's libpq-dev puts the header in /usr/include/postgresql; Homebrew's libpq (keg-only) and
// most other systems put it on the include path given by `pkg-config --cflags libpq`.
#if __has_include(<libpq-fe.h>)
#include <libpq-fe.h>
#else
#include <postgresql/libpq-fe.h>
#endif
#endif
