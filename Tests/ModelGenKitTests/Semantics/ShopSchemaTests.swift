import Foundation
import Testing
@testable import ModelGenKit

/// The checked schema of `Samples/Shop.model`: every attribute type, every kind of relationship.
@Suite struct ShopSchemaTests {
    let schema: CheckedSchema?
    let diagnostics: [Diagnostic]

    init() throws {
        let url = InvalidSampleGoldenTests.packageRoot.appendingPathComponent("Samples/Shop.model")
        let source = SourceFile(path: "Samples/Shop.model", bytes: Array(try Data(contentsOf: url)))
        let result = Run.lint([source])
        (schema, diagnostics) = (result.schema, result.diagnostics)
    }

    private func property(_ entity: String, _ name: String) -> CheckedProperty.Kind? {
        schema?.entity(named: entity)?.properties.first { $0.name == name }?.kind
    }

    private func relationship(_ entity: String, _ name: String) -> CheckedRelationship? {
        if case .relationship(let r)? = property(entity, name) { return r }
        return nil
    }

    private func attribute(_ entity: String, _ name: String) -> CheckedAttribute? {
        if case .attribute(let a)? = property(entity, name) { return a }
        return nil
    }

    @Test func checksClean() {
        // The one warning: the category tree cascades to its own entity (docs/Rules.md cascade-cycle).
        #expect(diagnostics.map(\.rule) == [.cascadeCycle])
        #expect(schema != nil)
    }

    @Test func inverses() {
        #expect(relationship("Product", "tags")?.inverseName == "products")
        #expect(relationship("Tag", "products")?.inverseName == "tags")
        #expect(relationship("Tag", "products")?.inverseDeclaredHere == false)
        #expect(relationship("Product", "category")?.inverseName == "products")
        #expect(relationship("Category", "products")?.inverseName == "category")
        #expect(relationship("Category", "parent")?.inverseName == "children")
        #expect(relationship("Category", "children")?.inverseName == "parent")
        #expect(relationship("Category", "children")?.deleteRule == .cascade)
        #expect(relationship("Tag", "products")?.deleteRule == .deny)
        #expect(relationship("Order", "customer")?.deleteRule == .noAction)
        #expect(relationship("Customer", "orders")?.inverseName == "customer")
        #expect(relationship("Order", "products")?.inverseName == nil)
        #expect(relationship("Order", "products")?.isToMany == true)
    }

    @Test func attributeTypesAndDefaults() {
        #expect(attribute("Product", "price")?.type == .decimal)
        #expect(attribute("Product", "shelf")?.defaultValue == .integer("0"))
        #expect(attribute("Product", "weight")?.defaultValue == .float("0.5"))
        #expect(attribute("Product", "addedAt")?.defaultValue == .now)
        #expect(attribute("Product", "sizes")?.type == .array(.int))
        #expect(attribute("Product", "photo")?.externalStorage == true)
        #expect(schema?.entity(named: "Product")?.properties.first { $0.name == "isSelected" }?.isTransient == true)
        #expect(attribute("Order", "priority")?.type == .enumeration(qualifiedName: "Priority", rawType: .int))
        #expect(attribute("Order", "priority")?.defaultValue == .enumCase("normal"))
        #expect(attribute("Order", "channel")?.type == .enumeration(qualifiedName: "Order.Channel", rawType: .string))
        #expect(attribute("Customer", "default")?.defaultValue == .bool(false))
    }

    @Test func enumsRawValues() throws {
        let priority = try #require(schema?.enums.first)
        #expect(priority.cases.map(\.rawValue) == ["0", "1", "2"])
        let channel = try #require(schema?.entity(named: "Order")?.enums.first)
        #expect(channel.cases.map(\.rawValue) == ["web", "in-store", "phone"])
        #expect(channel.ownerEntity == "Order")
    }

    @Test func constraintsAndIndexes() {
        #expect(schema?.entity(named: "Product")?.uniqueConstraints == [["sku"]])
        #expect(schema?.entity(named: "Product")?.indexes == [["name"], ["price", "stock"]])
        #expect(schema?.entity(named: "Customer")?.uniqueConstraints == [["email"]])
        #expect(schema?.entity(named: "Tag")?.uniqueConstraints == [["label"]])
    }

    @Test func hierarchyAndContainer() throws {
        #expect(schema?.entity(named: "Product")?.subclassNames == ["DigitalProduct"])
        let digital = try #require(schema?.entity(named: "DigitalProduct")?.initializers.first)
        #expect(digital.superArguments == ["sku", "name", "price"])
        let shop = try #require(schema?.containers.first)
        #expect(shop.allEntities == ["Product", "DigitalProduct", "Tag", "Category", "Customer", "Order"])
        #expect(shop.listedEntities == ["Product", "Tag", "Category", "Customer", "Order"])
    }
}
