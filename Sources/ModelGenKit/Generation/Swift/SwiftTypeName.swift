/// Swift spellings of model types.
public enum SwiftTypeName {
    /// The Swift type of a value (`Int16`, `[String]`, `PersonalTrip.Reason`).
    public static func of(_ type: ValueType) -> String {
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
        case .enumeration(let name, _): SwiftIdentifier.escapedPath(name)
        case .array(let element): "[\(of(element))]"
        }
    }

    /// The Swift type of a property, optional or relationship included.
    public static func of(_ property: CheckedProperty) -> String {
        switch property.kind {
        case .attribute(let attribute):
            of(attribute.type) + (attribute.isOptional ? "?" : "")
        case .relationship(let relationship):
            relationship.isToMany
                ? "[\(SwiftIdentifier.escaped(relationship.destination))]"
                : "\(SwiftIdentifier.escaped(relationship.destination))?"
        }
    }
}
