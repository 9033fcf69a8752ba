// Checks enum declarations and turns them into `CheckedEnum`s.
//
// - An enum's first inheritance entry is its raw type when it is `String` or `Int`; another
//   built-in type there (`Double`, `UInt8`…) is `unsupported-type`. Without a raw type and without
//   associated values, the enum is plain (`enum Provider: Codable { case ollama }`): stored by case
//   name, as a String enum whose raw values are the names; a raw value on one of its cases is
//   `default-type-mismatch`.
// - Every other entry is a protocol, passed through to the generated enum (`Conformances`).
// - `duplicate-case`: a case name or a raw value (written or implied) used twice.
// - A raw value of the wrong kind (`case a = 1` in a `String` enum) is `default-type-mismatch`.
// - An enum whose cases carry associated values (`case circle(radius: Double)`) has no raw type
//   (one written is `unsupported-type`) and no raw values (`default-type-mismatch`), and cannot be
//   `CaseIterable`. Its associated values are resolved by `CompositeRules`.

enum EnumResolver {
    /// Raw types Swift allows that cannot be stored (besides the built-in value types other than String and Int).
    static let otherRawTypes: Set<String> = ["UInt", "UInt64", "Int128", "UInt128", "Float16", "Float80", "Character", "Substring"]

    /// Checks every enum of `model` and stores its `CheckedEnum` (nil when its raw type is unusable).
    static func resolveAll(_ model: inout SemanticModel) {
        let modelTypes = Conformances.modelTypeNames(model)
        for name in model.topLevelEnumOrder {
            guard var info = model.topLevelEnums[name] else { continue }
            info.checked = check(&info, modelTypes: modelTypes, sink: &model.sink)
            model.topLevelEnums[name] = info
        }
        for entity in model.entityOrder {
            guard var entityInfo = model.entities[entity] else { continue }
            for name in entityInfo.nestedEnumOrder {
                guard var info = entityInfo.nestedEnums[name] else { continue }
                info.checked = check(&info, modelTypes: modelTypes, sink: &model.sink)
                entityInfo.nestedEnums[name] = info
            }
            model.entities[entity] = entityInfo
        }
    }

    private static func check(_ info: inout EnumInfo, modelTypes: Set<String>, sink: inout DiagnosticSink) -> CheckedEnum? {
        if info.hasAssociatedValues { return checkWithAssociatedValues(&info, modelTypes: modelTypes, sink: &sink) }
        let decl = info.decl
        var protocols = decl.inheritance[...]
        let rawType: EnumRawType
        let hasDeclaredRawType: Bool
        if let first = decl.inheritance.first, let written = EnumRawType(rawValue: first.name) {
            rawType = written
            hasDeclaredRawType = true
            protocols = protocols.dropFirst()
        } else if let first = decl.inheritance.first,
                  TypeResolver.builtinTypes[first.name] != nil || otherRawTypes.contains(first.name) {
            sink.error(.unsupportedType, "enum '\(info.qualifiedName)' has raw type '\(first.name)', which cannot be stored: use String or Int, or no raw type (the enum is then stored by case name)", at: first.range)
            return nil
        } else {
            // A plain enum: stored by case name, as a String enum whose raw values are the names.
            rawType = .string
            hasDeclaredRawType = false
        }
        let implied = Conformances.implied.union(hasDeclaredRawType ? ["CaseIterable", "RawRepresentable"] : ["CaseIterable"])
        let conformances = Conformances.passedThrough(Array(protocols), implied: implied, owner: "enum '\(info.qualifiedName)'",
                                                      modelTypes: modelTypes, sink: &sink)

        var cases: [CheckedEnum.Case] = []
        var caseNames: [String: Identifier] = [:]
        var rawValues: [String: EnumCaseDecl] = [:]
        var nextInt: Int64? = 0
        for caseDecl in decl.cases {
            let name = caseDecl.name.name
            guard claim(caseDecl, in: &caseNames, of: info, sink: &sink) else { continue }
            if !hasDeclaredRawType, let written = caseDecl.rawValue {
                sink.error(.defaultTypeMismatch, "case '\(name)' of enum '\(info.qualifiedName)' has a raw value, but the enum has no raw type: write 'enum \(decl.name.name): String' (or Int) first, or remove '= …' (a plain enum is stored by case name)", at: written.range)
                continue
            }
            guard let rawValue = rawValue(of: caseDecl, rawType: rawType, enumName: info.qualifiedName, nextInt: &nextInt, sink: &sink) else { continue }
            if let first = rawValues[rawValue] {
                let shown = rawType == .string ? "\"\(rawValue)\"" : rawValue
                sink.error(.duplicateCase, "cases '\(first.name.name)' and '\(name)' of enum '\(info.qualifiedName)' share the raw value \(shown): give each case its own", at: caseDecl.rawValue?.range ?? caseDecl.name.range, notes: [DiagnosticNote("'\(first.name.name)' declared here", at: first.name.range)])
                continue
            }
            rawValues[rawValue] = caseDecl
            cases.append(CheckedEnum.Case(name: name, doc: caseDecl.doc?.lines ?? [], rawValue: rawValue))
            info.keptCases.append(caseDecl)
        }
        return CheckedEnum(name: decl.name.name, qualifiedName: info.qualifiedName, ownerEntity: info.ownerEntity,
                           rawType: rawType, cases: cases, doc: decl.doc?.lines ?? [], range: decl.range,
                           hasDeclaredRawType: hasDeclaredRawType, conformances: conformances)
    }

    /// An enum whose cases carry associated values: no raw type, no raw values, unique case names.
    /// The cases' associated values are filled in later (`CompositeRules`), once every type is known.
    private static func checkWithAssociatedValues(_ info: inout EnumInfo, modelTypes: Set<String>, sink: inout DiagnosticSink) -> CheckedEnum? {
        let decl = info.decl
        let firstWithValues = decl.cases.first { $0.associatedValues != nil }
        let caseNote = firstWithValues.map { [DiagnosticNote("case '\($0.name.name)' carries associated values here", at: $0.name.range)] } ?? []
        for conformance in decl.inheritance {
            if let rawType = EnumRawType(rawValue: conformance.name) {
                sink.error(.unsupportedType, "enum '\(info.qualifiedName)' has cases with associated values, so it cannot have raw type '\(rawType.rawValue)': remove ': \(rawType.rawValue)' (such an enum is stored as JSON)", at: conformance.range, notes: caseNote)
                return nil
            }
            if conformance.name == "CaseIterable" {
                sink.error(.unsupportedType, "enum '\(info.qualifiedName)' has cases with associated values and cannot be CaseIterable: remove 'CaseIterable'", at: conformance.range, notes: caseNote)
            }
        }
        let conformances = Conformances.passedThrough(decl.inheritance.filter { $0.name != "CaseIterable" }, implied: Conformances.implied,
                                                      owner: "enum '\(info.qualifiedName)'", modelTypes: modelTypes, sink: &sink)
        var cases: [CheckedEnum.Case] = []
        var caseNames: [String: Identifier] = [:]
        for caseDecl in decl.cases {
            let name = caseDecl.name.name
            guard claim(caseDecl, in: &caseNames, of: info, sink: &sink) else { continue }
            if let rawValue = caseDecl.rawValue {
                sink.error(.defaultTypeMismatch, "case '\(name)' of enum '\(info.qualifiedName)' has a raw value, but an enum whose cases carry associated values has no raw type: remove '= …'", at: rawValue.range, notes: caseNote)
            }
            cases.append(CheckedEnum.Case(name: name, doc: caseDecl.doc?.lines ?? [], rawValue: nil))
            info.keptCases.append(caseDecl)
        }
        return CheckedEnum(name: decl.name.name, qualifiedName: info.qualifiedName, ownerEntity: info.ownerEntity,
                           rawType: nil, cases: cases, doc: decl.doc?.lines ?? [], range: decl.range, conformances: conformances)
    }

    /// Records the case's name; `duplicate-case` and false when an earlier case has it.
    private static func claim(_ caseDecl: EnumCaseDecl, in names: inout [String: Identifier], of info: EnumInfo, sink: inout DiagnosticSink) -> Bool {
        let name = caseDecl.name.name
        if let first = names[name] {
            sink.error(.duplicateCase, "enum '\(info.qualifiedName)' declares case '\(name)' twice: remove or rename one", at: caseDecl.name.range, notes: [DiagnosticNote("'\(name)' first declared here", at: first.range)])
            return false
        }
        names[name] = caseDecl.name
        return true
    }

    /// The raw value of a case as `CheckedEnum.Case.rawValue` spells it, or nil (reported).
    private static func rawValue(of caseDecl: EnumCaseDecl, rawType: EnumRawType, enumName: String, nextInt: inout Int64?, sink: inout DiagnosticSink) -> String? {
        let name = caseDecl.name.name
        switch (rawType, caseDecl.rawValue?.kind) {
        case (.string, nil):
            return name
        case (.string, .string(let text)?):
            if text.unicodeScalars.contains("\0") {
                sink.error(.defaultTypeMismatch, "raw value of case '\(name)' of enum '\(enumName)' holds U+0000 (NUL): SQLite would cut the stored value there and PostgreSQL cannot store it in text; remove the '\\u{0}'", at: caseDecl.rawValue!.range)
                return nil
            }
            return text
        case (.int, nil):
            guard let value = nextInt else {
                sink.error(.defaultTypeMismatch, "case '\(name)' of enum '\(enumName)' needs a raw value: the previous one is the largest Int", at: caseDecl.name.range)
                return nil
            }
            nextInt = value.addingReportingOverflow(1).overflow ? nil : value + 1
            return String(value)
        case (.int, .integer(let text)?):
            guard let value = Int64(text) else {
                sink.error(.defaultTypeMismatch, "raw value \(text) of case '\(name)' does not fit in Int", at: caseDecl.rawValue!.range)
                return nil
            }
            nextInt = value.addingReportingOverflow(1).overflow ? nil : value + 1
            return String(value)
        case (_, _?):
            let expected = rawType == .string ? "a string literal" : "an integer literal"
            sink.error(.defaultTypeMismatch, "raw value of case '\(name)' of enum '\(enumName)' must be \(expected), as its raw type is \(rawType.rawValue)", at: caseDecl.rawValue!.range)
            return nil
        }
    }
}
