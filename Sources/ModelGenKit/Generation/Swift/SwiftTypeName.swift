/// Swift spellings of model types.
public enum SwiftTypeName {
    /// The Swift type of a value (`Int16`, `[String]`, `PersonalTrip.Reason`). Inside the entity
    /// `context`, its own nested enums are named without the entity (`Reason`).
    public static func of(_ type: ValueType, in context: String? = nil) -> String {
        switch type {
        case .bool: "Bool"
        case .int: "Int"
        case .int8: "Int8"
        case .int16: "Int16"
        case .int32: "Int32"
        case .int64: "Int64"
        case .uint8: "UInt8"
        case .uint16: "UInt16"
        case .uint32: "UInt32"
        case .double: "Double"
        case .float: "Float"
        case .string: "String"
        case .date: "Date"
        case .uuid: "UUID"
        case .data: "Data"
        case .url: "URL"
        case .decimal: "Decimal"
        case .enumeration(let name, _):
            if let context, name.hasPrefix(context + "."), !name.dropFirst(context.count + 1).contains(".") {
                SwiftIdentifier.escaped(String(name.dropFirst(context.count + 1)))
            } else {
                SwiftIdentifier.escapedPath(name)
            }
        case .array(let element): "[\(of(element, in: context))]"
        }
    }

    /// The Swift type of a property, optional or relationship included, as spelled inside `context`.
    public static func of(_ property: CheckedProperty, in context: String? = nil) -> String {
        switch property.kind {
        case .attribute(let attribute):
            of(attribute.type, in: context) + (attribute.isOptional ? "?" : "")
        case .relationship(let relationship):
            relationship.isToMany
                ? "[\(SwiftIdentifier.escaped(relationship.destination))]"
                : "\(SwiftIdentifier.escaped(relationship.destination))?"
        }
    }
}
