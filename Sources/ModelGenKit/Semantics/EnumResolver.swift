// Checks enum declarations and turns them into `CheckedEnum`s.
//
// - The first inheritance entry is the raw type, `String` or `Int`; a missing or other raw type is
//   `unsupported-type` (the enum could not be stored). Further entries may be `Codable`,
//   `Hashable`, `Equatable`, `Sendable`, `CaseIterable` (generated enums have them all anyway);
//   anything else is `unknown-type`.
// - `duplicate-case`: a case name or a raw value (written or implied) used twice.
// - A raw value of the wrong kind (`case a = 1` in a `String` enum) is `default-type-mismatch`.
// - An enum whose cases carry associated values (`case circle(radius: Double)`) has no raw type
//   (one written is `unsupported-type`) and no raw values (`default-type-mismatch`); it may list the
//   conformances above except `CaseIterable`. Its associated values are resolved by `CompositeRules`.

enum EnumResolver {
    static let allowedConformances: Set<String> = ["Codable", "Hashable", "Equatable", "Sendable", "CaseIterable", "Decodable", "Encodable"]

    /// Checks every enum of `model` and stores its `CheckedEnum` (nil when its raw type is unusable).
    static func resolveAll(_ model: inout SemanticModel) {
        for name in model.topLevelEnumOrder {
            guard var info = model.topLevelEnums[name] else { continue }
            info.checked = check(&info, sink: &model.sink)
            model.topLevelEnums[name] = info
        }
        for entity in model.entityOrder {
            guard var entityInfo = model.entities[entity] else { continue }
            for name in entityInfo.nestedEnumOrder {
                guard var info = entityInfo.nestedEnums[name] else { continue }
                info.checked = check(&info, sink: &model.sink)
                entityInfo.nestedEnums[name] = info
            }
            model.entities[entity] = entityInfo
        }
    }

    private static func check(_ info: inout EnumInfo, sink: inout DiagnosticSink) -> CheckedEnum? {
        if info.hasAssociatedValues { return checkWithAssociatedValues(&info, sink: &sink) }
        let decl = info.decl
        guard let rawTypeName = decl.inheritance.first else {
            sink.error(.unsupportedType, "enum '\(info.qualifiedName)' has no raw type and cannot be stored: write 'enum \(decl.name.name): String'", at: decl.name.range)
            return nil
        }
        guard let rawType = EnumRawType(rawValue: rawTypeName.name) else {
            if allowedConformances.contains(rawTypeName.name) {
                sink.error(.unsupportedType, "enum '\(info.qualifiedName)' has no raw type and cannot be stored: write 'String' or 'Int' first, as in 'enum \(decl.name.name): String, \(rawTypeName.name)'", at: rawTypeName.range)
            } else {
                sink.error(.unsupportedType, "enum '\(info.qualifiedName)' has raw type '\(rawTypeName.name)', which cannot be stored: use String or Int", at: rawTypeName.range)
            }
            return nil
        }
        for conformance in decl.inheritance.dropFirst() where !allowedConformances.contains(conformance.name) {
            sink.error(.unknownType, "unknown protocol '\(conformance.name)' in enum '\(info.qualifiedName)': only Codable, Hashable, Equatable, Sendable and CaseIterable may follow the raw type", at: conformance.range)
        }

        var cases: [CheckedEnum.Case] = []
        var caseNames: [String: Identifier] = [:]
        var rawValues: [String: EnumCaseDecl] = [:]
        var nextInt: Int64? = 0
        for caseDecl in decl.cases {
            let name = caseDecl.name.name
            guard claim(caseDecl, in: &caseNames, of: info, sink: &sink) else { continue }
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
                           rawType: rawType, cases: cases, doc: decl.doc?.lines ?? [], range: decl.range)
    }

    /// An enum whose cases carry associated values: no raw type, no raw values, unique case names.
    /// The cases' associated values are filled in later (`CompositeRules`), once every type is known.
    private static func checkWithAssociatedValues(_ info: inout EnumInfo, sink: inout DiagnosticSink) -> CheckedEnum? {
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
            } else if !allowedConformances.contains(conformance.name) {
                sink.error(.unknownType, "unknown protocol '\(conformance.name)' in enum '\(info.qualifiedName)': only Codable, Hashable, Equatable and Sendable may be listed", at: conformance.range)
            }
        }
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
                           rawType: nil, cases: cases, doc: decl.doc?.lines ?? [], range: decl.range)
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
