#!/usr/bin/env python3
"""Fuzzing of the generator's output (docs/Reliability.md, "Fuzzing the generated code").

Each round writes a random, lint-clean model (random names, attribute types, optionals, defaults,
String and Int enums, structs, a subclass), generates its Swift with the built `modelgen`,
compiles it with a checker into a scratch package that depends on this repository's ModelStore,
and runs the checker: for every entity one model made with the defaults and one with random
values for every attribute go through a SQLite file store, and after reopening every value must
come back as written (defaults as the literal says; `UUID()` and `Date()` as the model held it).

    Scripts/fuzz-generated.py [--rounds N] [--seconds S] [--seed N] [--known-bugs 5,6,7]
    Scripts/fuzz-generated.py --replay DIR      # rerun a kept case

A model the linter refuses is skipped and counted (the models are meant to be lint-clean: look
at the count). A generate error, a compile error, a warning in the generated code or a wrong
value is a finding: the case (model, generated Swift, checker, output) is kept in
.build/fuzz-generated/findings/ and the script exits 1. Known bugs of issue #26 (5: a `.none`
default of an enum with a case `none`; 6: names that differ only in case; 7: U+0000 in a String
default) are left out unless --known-bugs names them.
"""
import argparse
import os
import random
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WORK = os.path.join(ROOT, ".build", "fuzz-generated")
PACKAGE = os.path.join(WORK, "package")
TARGET = os.path.join(PACKAGE, "Sources", "RoundTrip")
SCRATCH = os.path.join(WORK, "scratch")
FINDINGS = os.path.join(WORK, "findings")

SYLLABLES = ["ka", "lo", "mi", "nu", "pe", "ri", "sa", "to", "vu", "ze", "bra", "qui", "dro", "fen", "gal", "hob", "jux", "wil", "yar", "cöl", "ñan"]
RESERVED = {"persistentModelID", "modelContext", "hasChanges", "isDeleted", "id", "serial", "description", "hashValue", "init", "self", "Type"}


class Names:
    """Identifiers never used twice in one model, compared case-insensitively (issue #26 item 6)."""

    def __init__(self, rng, collide):
        self.rng, self.used, self.collide = rng, set(), collide

    def make(self, upper):
        while True:
            name = "".join(self.rng.choice(SYLLABLES) for _ in range(self.rng.randint(2, 3)))
            if self.rng.random() < 0.2:
                name += str(self.rng.randint(0, 99))
            name = (name[0].upper() if upper else name[0].lower()) + name[1:]
            if name.lower() not in self.used and name not in RESERVED:
                self.used.add(name.lower())
                return name

    def twin(self, name):
        """Known bug 6: the same name in another case."""
        return name.swapcase()


# Values: (model literal, Swift expression). Strings are written with the escapes both languages share.

def swift_string(text):
    out = '"'
    for ch in text:
        code = ord(ch)
        if ch == '"':
            out += '\\"'
        elif ch == "\\":
            out += "\\\\"
        elif ch == "\n":
            out += "\\n"
        elif ch == "\t":
            out += "\\t"
        elif code < 0x20 or code == 0x7F or 0xD800 <= code <= 0xDFFF:
            out += "\\u{%x}" % code
        else:
            out += ch
    return out + '"'


STRINGS = ["", "a", "quote\"inside", "back\\slash", "line\nbreak", "tab\there", "é", "e\u0301", "日本語", "🦤", "\u200b", "'; DROP TABLE x; --",
           "{\"json\": [1]}", "  spaced  ", "\u00a0", "NULL", "\U0010FFFF", "a" * 300]
INT_RANGES = {
    "Int": (-(2**63), 2**63 - 1), "Int64": (-(2**63), 2**63 - 1), "Int32": (-(2**31), 2**31 - 1), "Int16": (-(2**15), 2**15 - 1),
    "Int8": (-128, 127), "UInt8": (0, 255), "UInt16": (0, 2**16 - 1), "UInt32": (0, 2**32 - 1),
}
DOUBLES = ["0.0", "1.5", "-2.25", "1e10", "-1e-5", "3.141592653589793", "1.7976931348623157e308", "5e-324", "123456789.125", "0.1"]
FLOATS = ["0.0", "0.5", "-1.25", "1e10", "3.4028235e38", "1e-45", "0.1", "65504.0"]
DECIMALS = ["0", "1.5", "-12.345", "12345678901234567890.123456789", "0.000001", "99999999999999999999999999999999999999"]
DATES = ["0", "12.5", "-1000000.25", "700000000", "-63114076800"]


class Model:
    def __init__(self, rng, bugs):
        self.rng, self.bugs = rng, bugs
        self.names = Names(rng, 6 in bugs)
        self.enums = []    # (name, raw "String"/"Int", [(case, raw literal or None)])
        self.structs = []  # (name, [field])
        self.entities = []  # dict(name, base, attrs)

    # --- types and values

    def random_type(self, in_struct=False):
        r = self.rng.random()
        base = self.rng.choice(list(INT_RANGES) + ["String"] * 4 + ["Double", "Float", "Bool", "Date", "UUID", "Data", "URL", "Decimal"])
        if r < 0.12 and self.enums:
            base = ("enum", self.rng.choice(self.enums))
        elif r < 0.2 and self.structs and not in_struct:
            base = ("struct", self.rng.choice(self.structs))
        elif r < 0.28:
            base = ("array", self.rng.choice(["Int", "String", "Double", "Bool"]))
        return base

    def type_name(self, t):
        if isinstance(t, tuple):
            kind, what = t
            if kind == "array":
                return "[%s]" % what
            return what[0]
        return t

    def value(self, t):
        """A random value of type t: (model literal or None when the language has none, Swift expression)."""
        rng = self.rng
        if isinstance(t, tuple):
            kind, what = t
            if kind == "enum":
                case = rng.choice(what[2])[0]
                return "." + case, "%s.%s" % (what[0], case)
            if kind == "struct":
                parts = ["%s: %s" % (f["name"], self.value_of_field(f)) for f in what[1]]
                return None, "%s(%s)" % (what[0], ", ".join(parts))
            items = [self.value(what) for _ in range(rng.randint(0, 3))]
            return "[%s]" % ", ".join(i[0] for i in items), "[%s]" % ", ".join(i[1] for i in items)
        if t in INT_RANGES:
            low, high = INT_RANGES[t]
            v = rng.choice([low, high, 0, 1, -1 if low < 0 else 2, rng.randint(low, high)])
            return str(v), "%s(%d)" % (t, v)
        if t == "String":
            text = rng.choice(STRINGS) if rng.random() < 0.8 else "".join(chr(rng.randint(0x20, 0x2FF)) for _ in range(rng.randint(0, 12)))
            if 7 in self.bugs and rng.random() < 0.1:
                text += "\u0000"
            return swift_string(text), swift_string(text)
        if t == "Double":
            v = rng.choice(DOUBLES)
            return v, "Double(%s)" % v
        if t == "Float":
            v = rng.choice(FLOATS)
            return v, "Float(%s)" % v
        if t == "Bool":
            v = rng.choice(["true", "false"])
            return v, v
        if t == "Date":
            v = rng.choice(DATES)
            return "Date(timeIntervalSinceReferenceDate: %s)" % v, "Date(timeIntervalSinceReferenceDate: %s)" % v
        if t == "Decimal":
            v = rng.choice(DECIMALS)
            return v, 'Decimal(string: "%s")!' % v
        if t == "UUID":
            v = "%08X-%04X-%04X-%04X-%012X" % (rng.getrandbits(32), rng.getrandbits(16), rng.getrandbits(16), rng.getrandbits(16), rng.getrandbits(48))
            return None, 'UUID(uuidString: "%s")!' % v
        if t == "Data":
            return None, "Data([%s])" % ", ".join(str(rng.randint(0, 255)) for _ in range(rng.randint(0, 6)))
        if t == "URL":
            v = rng.choice(["https://example.com/a?b=c#d", "file:///tmp/x%20y", "mailto:a@b.c", "https://[::1]:8080/", "https://xn--e1afmkfd.xn--p1ai/путь"])
            return None, "URL(string: %s)!" % swift_string(v)
        raise ValueError(t)

    def value_of_field(self, f):
        if f["optional"] and self.rng.random() < 0.3:
            return "nil"
        return self.value(f["type"])[1]

    def default_for(self, t, optional):
        """A default (model literal, Swift expression of the expected value, checkable), or None."""
        if optional and self.rng.random() < 0.4:
            return "nil", "nil", True
        if t == "UUID":
            return "UUID()", None, False
        if t == "Date" and self.rng.random() < 0.3:
            return self.rng.choice([(".now", None, False), ("Date()", None, False), (".distantPast", "Date.distantPast", True),
                                     (".distantFuture", "Date.distantFuture", True)])
        if isinstance(t, tuple) and t[0] == "enum" and 5 in self.bugs and any(c == "none" for c, _ in t[1][2]):
            return ".none", "%s.none" % t[1][0], True
        literal, swift = self.value(t)
        if literal is None:
            return None
        return literal, swift, True

    # --- declarations

    def build(self):
        rng = self.rng
        for _ in range(rng.randint(0, 2)):
            raw = rng.choice(["String", "Int"])
            cases, raws = [], set()
            for i in range(rng.randint(1, 4)):
                case = self.names.make(False)
                if 5 in self.bugs and i == 0 and rng.random() < 0.5:
                    case = "none"
                value = None
                if rng.random() < 0.4:
                    value = swift_string(rng.choice(["x", "Y", "é", "two words", ""])) if raw == "String" else str(rng.randint(-5, 50))
                    if value in raws:
                        value = None
                    raws.add(value)
                cases.append((case, value))
            if raw == "String" and len(set(v if v is not None else '"%s"' % c for c, v in cases)) < len(cases):
                cases = [(c, None) for c, _ in cases]
            if raw == "Int" and any(v is not None for _, v in cases):
                cases = [(c, None) for c, _ in cases]  # implicit Int raw values follow the previous one: keep them simple
            self.enums.append((self.names.make(True), raw, cases))
        for _ in range(rng.randint(0, 2)):
            fields = [self.attribute(in_struct=True) for _ in range(rng.randint(1, 4))]
            self.structs.append((self.names.make(True), fields))
        for index in range(rng.randint(1, 3)):
            entity = {"name": self.names.make(True), "base": None, "attrs": [self.attribute() for _ in range(rng.randint(2, 8))]}
            if 6 in self.bugs and rng.random() < 0.3:
                entity["attrs"].append(dict(entity["attrs"][0], name=self.names.twin(entity["attrs"][0]["name"])))
            self.entities.append(entity)
            if index == 0 and rng.random() < 0.4:
                attrs = [self.attribute() for _ in range(rng.randint(1, 3))]
                attrs.append(dict(self.attribute(), type="Int", default=None))  # never a label-only subclass
                self.entities.append({"name": self.names.make(True), "base": entity, "attrs": attrs})

    def attribute(self, in_struct=False):
        t = self.random_type(in_struct)
        optional = self.rng.random() < 0.3 and not (isinstance(t, tuple) and t[0] == "array")
        attr = {"name": self.names.make(False), "type": t, "optional": optional, "default": None}
        if self.rng.random() < 0.55:
            attr["default"] = self.default_for(t, optional)
        return attr

    def field_text(self, a):
        text = "%s: %s%s" % (a["name"], self.type_name(a["type"]), "?" if a["optional"] else "")
        if a["default"]:
            text += " = " + a["default"][0]
        return text

    def source(self):
        lines = ["// Written by Scripts/fuzz-generated.py."]
        for name, raw, cases in self.enums:
            lines.append("enum %s: %s {" % (name, raw))
            for case, value in cases:
                lines.append("    case %s%s" % (case, " = " + value if value is not None else ""))
            lines.append("}")
        for name, fields in self.structs:
            lines.append("struct %s {" % name)
            lines += ["    " + self.field_text(f) for f in fields]
            lines.append("}")
        for e in self.entities:
            lines.append("entity %s%s {" % (e["name"], ": " + e["base"]["name"] if e["base"] else ""))
            if not e["base"]:
                lines.append("    serial: Int")
            lines += ["    " + self.field_text(a) for a in e["attrs"]]
            lines.append("}")
        lines.append("container FuzzStore { %s }" % ", ".join(e["name"] for e in self.entities if not e["base"]))
        return "\n".join(lines) + "\n"

    # --- the checker

    def all_attrs(self, e):
        return (e["base"]["attrs"] if e["base"] else []) + e["attrs"]

    def checker(self):
        rng = self.rng
        out = ["// Written by Scripts/fuzz-generated.py: round trip of every attribute through a file store.",
               "import Foundation", "import ModelStore", "",
               "var failures = 0",
               "@MainActor func check<T: Equatable>(_ what: String, _ got: T, _ expected: T) {",
               "    if got != expected { failures += 1; print(\"MISMATCH \\(what): expected \\(String(reflecting: expected)), got \\(String(reflecting: got))\") }",
               "}",
               "let url = URL(fileURLWithPath: CommandLine.arguments[1])",
               "var serial = 0", ""]
        body_make, body_check = [], []
        for ei, e in enumerate(self.entities):
            for variant in ("defaults", "values"):
                var = "m%d%s" % (ei, variant[0])
                args = ["serial: %d" % (ei * 2 + (variant == "values"))]
                expected = []
                for a in self.all_attrs(e):
                    if variant == "values" or a["default"] is None:
                        swift = "nil" if a["optional"] and rng.random() < 0.25 else self.value(a["type"])[1]
                        args.append("%s: %s" % (a["name"], swift))
                        expected.append((a, swift))
                    elif a["default"][2]:
                        expected.append((a, a["default"][1]))
                    else:
                        expected.append((a, None))  # UUID(), Date(): as the model held it
                body_make.append("let %s = %s(%s)" % (var, e["name"], ", ".join(args)))
                body_make.append("context.insert(%s)" % var)
                for a, swift in expected:
                    t = self.type_name(a["type"]) + ("?" if a["optional"] else "")
                    if swift is None:
                        body_make.append("let %s_%s = %s.%s" % (var, a["name"], var, a["name"]))
                        swift = "%s_%s" % (var, a["name"])
                    else:
                        body_make.append("check(%s, %s.%s, %s as %s)" % (swift_string("%s.%s (%s, in memory)" % (e["name"], a["name"], variant)), var, a["name"], swift, t))
                    body_check.append("do {")
                    body_check.append("    let s = %d" % (ei * 2 + (variant == "values")))
                    body_check.append("    let found = try reader.fetch(FetchDescriptor<%s>(predicate: #Predicate { $0.serial == s }))" % e["name"])
                    body_check.append("    if found.count != 1 { failures += 1; print(\"MISMATCH %s (%s): \\(found.count) rows\") }" % (e["name"], variant))
                    body_check.append("    else { check(%s, found[0].%s, %s as %s) }" % (swift_string("%s.%s (%s, stored)" % (e["name"], a["name"], variant)), a["name"], swift, t))
                    body_check.append("}")
        out += ["do {",
                "    let container = try ModelContainer(for: FuzzStore.schema, configurations: ModelConfiguration(url: url))",
                "    let context = ModelContext(container)"]
        out += ["    " + line for line in body_make]
        out += ["    try context.save()",
                "    let reopened = try ModelContainer(for: FuzzStore.schema, configurations: ModelConfiguration(url: url))",
                "    let reader = ModelContext(reopened)"]
        out += ["    " + line for line in body_check]
        out += ["} catch {", "    failures += 1", "    print(\"ERROR \\(error)\")", "}",
                "print(failures == 0 ? \"OK\" : \"FAILED \\(failures)\")",
                "exit(failures == 0 ? 0 : 1)"]
        return "\n".join(out) + "\n"


def run(cmd, cwd=None):
    p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return p.returncode, p.stdout


def setup_package():
    os.makedirs(TARGET, exist_ok=True)
    with open(os.path.join(PACKAGE, "Package.swift"), "w") as f:
        f.write('''// swift-tools-version:6.0
// Written by Scripts/fuzz-generated.py.
import PackageDescription

let package = Package(
    name: "FuzzGenerated",
    dependencies: [.package(name: "ModelGen", path: "%s")],
    targets: [
        .executableTarget(name: "RoundTrip", dependencies: [.product(name: "ModelStore", package: "ModelGen")], path: "Sources/RoundTrip"),
    ],
    swiftLanguageModes: [.v6]
)
''' % ROOT)


def modelgen():
    for path in (os.path.join(ROOT, ".build", "debug", "modelgen"), os.path.join(ROOT, ".build", "x86_64-unknown-linux-gnu", "debug", "modelgen")):
        if os.path.exists(path):
            return path
    code, output = run(["swift", "build", "--product", "modelgen"], cwd=ROOT)
    if code != 0:
        sys.exit("swift build --product modelgen failed:\n" + output)
    return os.path.join(ROOT, ".build", "debug", "modelgen")


def one_round(tool, model_text, checker_text):
    """Lint, generate, build and run one case; returns (stage, output) of a failure, or None."""
    model_path = os.path.join(WORK, "Fuzz.model")
    with open(model_path, "w") as f:
        f.write(model_text)
    code, output = run([tool, "lint", "--warnings-as-errors", model_path])
    if code != 0:
        return "refused", output
    for name in os.listdir(TARGET):
        os.remove(os.path.join(TARGET, name))
    code, output = run([tool, "generate", "--output", TARGET, model_path])
    if code != 0:
        return "generate", output
    with open(os.path.join(TARGET, "main.swift"), "w") as f:
        f.write(checker_text)
    code, output = run(["swift", "build", "--scratch-path", SCRATCH], cwd=PACKAGE)
    generated_warnings = [l for l in output.splitlines() if "warning:" in l and "Fuzz.model.swift" in l]
    if code != 0:
        return "compile", output
    if generated_warnings:
        return "warning", "\n".join(generated_warnings)
    store = os.path.join(WORK, "store.sqlite")
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(store + suffix):
            os.remove(store + suffix)
    code, output = run([os.path.join(SCRATCH, "debug", "RoundTrip"), store])
    if code != 0:
        return "round trip", output
    return None


def keep(stage, output, model_text, checker_text, seed):
    folder = os.path.join(FINDINGS, "%s-%d" % (stage.replace(" ", "-"), seed))
    os.makedirs(folder, exist_ok=True)
    for name, text in (("Fuzz.model", model_text), ("main.swift", checker_text), ("output.txt", output)):
        with open(os.path.join(folder, name), "w") as f:
            f.write(text)
    generated = os.path.join(TARGET, "Fuzz.model.swift")
    if os.path.exists(generated):
        shutil.copy(generated, folder)
    return folder


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=0, help="stop after N models (default: until --seconds)")
    parser.add_argument("--seconds", type=float, default=600)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--known-bugs", default="", help="issue #26 items to exercise: 5,6,7")
    parser.add_argument("--replay", help="a kept case's folder")
    parser.add_argument("--keep-going", action="store_true", help="keep looking after a finding")
    args = parser.parse_args()
    bugs = {int(x) for x in args.known_bugs.split(",") if x.strip()}
    tool = modelgen()
    setup_package()
    if args.replay:
        texts = [open(os.path.join(args.replay, n)).read() for n in ("Fuzz.model", "main.swift")]
        failure = one_round(tool, *texts)
        print("OK" if failure is None else "%s:\n%s" % failure)
        return 0 if failure is None else 1
    seed = args.seed if args.seed is not None else random.randrange(1, 2**31)
    print("fuzz-generated: seed %d" % seed)
    start, rounds, values, found, refused = time.time(), 0, 0, 0, 0
    while (args.rounds == 0 or rounds < args.rounds) and time.time() - start < args.seconds:
        round_seed = seed + rounds
        model = Model(random.Random(round_seed), bugs)
        model.build()
        model_text, checker_text = model.source(), model.checker()
        failure = one_round(tool, model_text, checker_text)
        rounds += 1
        values += checker_text.count("check(")
        if failure and failure[0] == "refused":
            refused += 1
            print("round %d (seed %d): refused by lint, skipped\n%s" % (rounds, round_seed, failure[1][-1500:]), flush=True)
        elif failure:
            found += 1
            folder = keep(failure[0], failure[1], model_text, checker_text, round_seed)
            print("round %d (seed %d): %s failed; kept in %s\n%s" % (rounds, round_seed, failure[0], folder, failure[1][-3000:]))
            if not args.keep_going:
                break
        else:
            print("round %d (seed %d): ok (%d entities)" % (rounds, round_seed, len(model.entities)), flush=True)
    print("fuzz-generated: %d models (%d refused by lint), %d checks, %d findings in %.0f s" % (rounds, refused, values, found, time.time() - start))
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
