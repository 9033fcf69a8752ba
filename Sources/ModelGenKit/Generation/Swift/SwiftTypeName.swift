/// Swift spellings of model types.
enum SwiftTypeName {
    /// The Swift type of a value (`Int16`, `[String]`, `PersonalTrip.Reason`). Inside the entity
    /// `context`, its own nested enums are named without the entity (`Reason`).
    static func of(_ type: ValueType, in context: String? = nil) -> String {
        switch type {
        case .enumeration(let name, _), .enumWithAssociatedValues(let name), .composite(let name):
            if let context, name.hasPrefix(context + "."), !name.dropFirst(context.count + 1).contains(".") {
                SwiftIdentifier.escaped(String(name.dropFirst(context.count + 1)))
            } else {
                SwiftIdentifier.escapedPath(name)
            }
        case .array(let element): "[\(of(element, in: context))]"
        default: type.description
        }
    }

    /// The Swift type of a property, optional or relationship included, as spelled inside `context`.
    static func of(_ property: CheckedProperty, in context: String? = nil) -> String {
        switch property.kind {
        case .attribute(let attribute):
            of(attribute.type, in: context) + (attribute.isOptional ? "?" : "")
        case .relationship(let relationship):
            relationship.isToMany
                ? "[\(SwiftIdentifier.escaped(relationship.destination))]" + (relationship.isOptionalToMany ? "?" : "")
                : "\(SwiftIdentifier.escaped(relationship.destination))?"
        }
    }
}
