import ModelGenKit

/// The round-trip oracle's other half: a checked schema written as the SwiftData source a user would
/// have (`@Model final class`, `@Attribute`, `@Relationship`, `#Unique`, `#Index`, designated inits
/// that assign each parameter). Kept plain on purpose: one line of Swift per fact of the schema, so
/// that `import(print(schema))` checking to `schema` proves the importer, not this printer.
/// Containers have no SwiftData spelling (apps pass the classes to `ModelContainer(for:)`), nor has
/// an entity's `originalName`: both are left out, and the comparison leaves them out too.
enum SwiftDataPrinter {
    static func print(_ schema: CheckedSchema) -> String {
        var out = "import Foundation\nimport SwiftData\n"
        for item in schema.enums { out += "\n" + enumeration(item, indent: "") }
        for item in schema.structs { out += "\n" + structure(item, schema: schema, indent: "") }
        for entity in schema.entities { out += "\n" + self.entity(entity, schema: schema) }
        for actor in schema.modelActors { out += "\n" + doc(actor.doc, "") + "@ModelActor actor \(actor.name) {}\n" }
        return out
    }

    private static func doc(_ lines: [String], _ indent: String) -> String {
        lines.map { indent + ($0.isEmpty ? "///" : "/// " + $0) + "\n" }.joined()
    }

    private static func enumeration(_ item: CheckedEnum, indent: String) -> String {
        var out = doc(item.doc, indent)
        let rawType = item.hasDeclaredRawType ? item.rawType : nil
        out += indent + "enum \(item.name)" + (rawType.map { ": \($0.rawValue), Codable" } ?? ": Codable")
            + item.conformances.map { ", " + $0 }.joined() + " {\n"
        for item2 in item.cases {
            out += doc(item2.doc, indent + "    ")
            out += indent + "    case `\(item2.name)`"
            if !item2.associatedValues.isEmpty {
                out += "(" + item2.associatedValues.map { ($0.label.map { "\($0): " } ?? "") + "\($0.type)" + ($0.isOptional ? "?" : "") }.joined(separator: ", ") + ")"
            }
            if let raw = item2.rawValue, rawType != nil {
                out += " = " + (item.rawType == .string ? literal(raw) : raw)
            }
            out += "\n"
        }
        return out + indent + "}\n"
    }

    private static func structure(_ item: CheckedStruct, schema: CheckedSchema, indent: String) -> String {
        var out = doc(item.doc, indent) + indent + "struct \(item.name): Codable" + item.conformances.map { ", " + $0 }.joined() + " {\n"
        for field in item.fields {
            out += doc(field.doc, indent + "    ")
            out += indent + "    var `\(field.name)`: \(field.type)" + (field.isOptional ? "?" : "")
            if let value = field.defaultValue { out += " = " + self.value(value, type: field.type) }
            out += "\n"
        }
        return out + indent + "}\n"
    }

    private static func entity(_ entity: CheckedEntity, schema: CheckedSchema) -> String {
        var out = doc(entity.doc, "") + "@Model\nfinal class \(entity.name)" + (entity.baseName.map { ": \($0)" } ?? "") + " {\n"
        for item in entity.enums { out += enumeration(item, indent: "    ") }
        for item in entity.structs { out += structure(item, schema: schema, indent: "    ") }
        let uniqueProperties = Set(entity.properties.compactMap { property -> String? in
            if case .attribute(let attribute) = property.kind, attribute.isUnique { return property.name }
            return nil
        })
        for property in entity.properties {
            out += doc(property.doc, "    ")
            switch property.kind {
            case .attribute(let attribute):
                var options: [String] = []
                if attribute.isUnique { options.append(".unique") }
                if attribute.preserveValueOnDeletion { options.append(".preserveValueOnDeletion") }
                if attribute.externalStorage { options.append(".externalStorage") }
                if let original = attribute.originalName { options.append("originalName: \(literal(original))") }
                if !options.isEmpty { out += "    @Attribute(" + options.joined(separator: ", ") + ")\n" }
                if property.isTransient { out += "    @Transient\n" }
                out += "    var `\(property.name)`: \(attribute.type)" + (attribute.isOptional ? "?" : "")
                if let value = attribute.defaultValue { out += " = " + self.value(value, type: attribute.type) }
            case .relationship(let relationship):
                var arguments = ["deleteRule: .\(relationship.deleteRule.rawValue)"]
                if relationship.inverseDeclaredHere, let inverse = relationship.inverseName {
                    arguments.append("inverse: \\\(relationship.destination).\(inverse)")
                }
                if let minimum = relationship.minimumModelCount { arguments.append("minimumModelCount: \(minimum)") }
                if let maximum = relationship.maximumModelCount { arguments.append("maximumModelCount: \(maximum)") }
                if let original = relationship.originalName { arguments.append("originalName: \(literal(original))") }
                out += "    @Relationship(" + arguments.joined(separator: ", ") + ")\n"
                out += "    var `\(property.name)`: " + type(of: property.name, owner: entity.name, schema: schema)
                if relationship.hasDefault { out += relationship.isToMany ? " = []" : " = nil" }
            }
            out += "\n"
        }
        for group in entity.uniqueConstraints where !(group.count == 1 && uniqueProperties.contains(group[0])) {
            out += "    #Unique<\(entity.name)>([" + group.map { "\\.\($0)" }.joined(separator: ", ") + "])\n"
        }
        if !entity.indexes.isEmpty {
            out += "    #Index<\(entity.name)>(" + entity.indexes.map { "[" + $0.map { "\\.\($0)" }.joined(separator: ", ") + "]" }.joined(separator: ", ") + ")\n"
        }
        for initializer in entity.initializers where !initializer.isSynthesized {
            out += doc(initializer.doc, "    ")
            let parameters = initializer.parameters.map { parameter in
                let type = type(of: parameter.name, owner: parameter.owner, schema: schema)
                let property = schema.entity(named: parameter.owner)?.properties.first { $0.name == parameter.name }
                let valueType: ValueType? = if case .attribute(let attribute)? = property?.kind { attribute.type } else { nil }
                let defaultArgument = parameter.defaultValue.flatMap { value in valueType.map { " = " + self.value(value, type: $0) } } ?? ""
                return "`\(parameter.name)`: " + type + defaultArgument
            }
            out += "    init(" + parameters.joined(separator: ", ") + ") {\n"
            for parameter in initializer.parameters where parameter.owner == entity.name {
                out += "        self.`\(parameter.name)` = `\(parameter.name)`\n"
            }
            if let superArguments = initializer.superArguments {
                out += "        super.init(" + superArguments.map { "`\($0)`: `\($0)`" }.joined(separator: ", ") + ")\n"
            }
            out += "    }\n"
        }
        return out + "}\n"
    }

    /// The Swift type of property `name` of `owner`.
    private static func type(of name: String, owner: String, schema: CheckedSchema) -> String {
        guard let property = schema.entity(named: owner)?.properties.first(where: { $0.name == name }) else { return "Never" }
        switch property.kind {
        case .attribute(let attribute): return "\(attribute.type)" + (attribute.isOptional ? "?" : "")
        case .relationship(let relationship): return relationship.isToMany ? "[\(relationship.destination)]" + (relationship.isOptionalToMany ? "?" : "") : "\(relationship.destination)?"
        }
    }

    private static func value(_ value: DefaultValue, type: ValueType) -> String {
        switch value {
        case .string(let text): return literal(text)
        case .integer(let text), .float(let text): return text
        case .bool(let flag): return flag ? "true" : "false"
        case .nil: return "nil"
        case .enumCase(let name): return ".\(name)"
        case .array(let elements):
            let element: ValueType = if case .array(let inner) = type { inner } else { type }
            return "[" + elements.map { self.value($0, type: element) }.joined(separator: ", ") + "]"
        case .newUUID: return "UUID()"
        case .now: return "Date()"
        case .distantPast: return ".distantPast"
        case .distantFuture: return ".distantFuture"
        case .dateSinceReferenceDate(let number): return "Date(timeIntervalSinceReferenceDate: \(number))"
        case .defaultStruct: return "\(type)()"
        case .staticMember(let name): return ".\(name)"
        }
    }

    /// A Swift string literal.
    private static func literal(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F: out += "\\u{\(String(scalar.value, radix: 16))}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
