/// Resolves generated metadata into `EntitySchema`s, their SQL and the stored description.
struct SchemaBuilder {
    private(set) var entities: [EntitySchema] = []
    private(set) var storage = StoredSchema()
    private(set) var problems: [String] = []
    private var seen: Set<ObjectIdentifier> = []
    /// Roots in order, each with its subclasses.
    private var hierarchies: [[EntitySchema]] = []

    var hierarchyCount: Int { hierarchies.count }

    // MARK: Collecting

    mutating func add(_ type: any PersistentModel.Type) {
        guard let modelType = type as? ModelObject.Type else {
            problems.append("\(type) is not a generated model class")
            return
        }
        add(modelType: modelType)
    }

    private mutating func add(modelType: ModelObject.Type) {
        let root = modelType.schemaMetadata.base ?? modelType
        guard !seen.contains(ObjectIdentifier(root)) else { return }
        var hierarchy: [EntitySchema] = []
        for member in [root] + root.schemaMetadata.subclasses where seen.insert(ObjectIdentifier(member)).inserted {
            let entity = EntitySchema(type: member)
            if member != root && member.schemaMetadata.base != root {
                problems.append("\(entity.name) is listed as a subclass of \(root.schemaMetadata.name) but names another base")
            }
            hierarchy.append(entity)
        }
        hierarchies.append(hierarchy)
        entities += hierarchy
    }

    // MARK: Resolving

    mutating func resolve() {
        // Destinations may name hierarchies that were not listed: add them.
        var index = 0
        while index < entities.count {
            for property in entities[index].metadata.properties {
                if let relationship = property.relationship { add(modelType: relationship.destination) }
            }
            index += 1
        }
        for hierarchy in hierarchies { resolveColumns(of: hierarchy) }
        for hierarchy in hierarchies { for entity in hierarchy { resolveRelationships(of: entity) } }
        for hierarchy in hierarchies { resolveKeyColumns(of: hierarchy) }
        for hierarchy in hierarchies { describe(hierarchy) }
        describeJoinTables()
        for (index, entity) in entities.enumerated() { entity.index = index }
    }

    private func entity(for type: ModelObject.Type) -> EntitySchema? {
        entities.first { $0.type == type }
    }

    private func entity(named name: String) -> EntitySchema? {
        entities.first { $0.name == name }
    }

    /// Attribute columns, type names and key-path lookups of one hierarchy; checks the generated
    /// `AttributeIndex` of every attribute against its position (the base's first).
    private mutating func resolveColumns(of hierarchy: [EntitySchema]) {
        guard let root = hierarchy.first else { return }
        let hierarchyIndex = hierarchies.firstIndex { $0.first === root } ?? 0
        var ownAttributes: [String: [StoredAttribute]] = [:]
        var ownColumns: [String: [AttributeColumn]] = [:]
        let rootAttributeCount = root.metadata.properties.count { $0.attribute != nil }
        let rootColumnCount = root.metadata.properties.reduce(0) { $0 + ($1.attribute?.columns.count ?? 0) }
        for entity in hierarchy {
            let isRoot = entity === root
            entity.tableName = root.name
            entity.hierarchyIndex = hierarchyIndex
            entity.baseName = isRoot ? nil : root.name
            entity.typeNames = isRoot ? hierarchy.map(\.name) : [entity.name]
            var attributes: [StoredAttribute] = []
            var columns: [AttributeColumn] = []
            var nextIndex = isRoot ? 0 : rootAttributeCount
            var nextColumn = isRoot ? 0 : rootColumnCount
            for property in entity.metadata.properties {
                guard let attribute = property.attribute else { continue }
                if property.index != nextIndex {
                    problems.append("\(entity.name).\(property.name): the generated AttributeIndex is \(property.index), but the attribute is number \(nextIndex) "
                                    + "of \(entity.name)'s stored attributes (the base's first): the generated code does not fit this ModelStore, regenerate it")
                }
                attributes.append(StoredAttribute(name: property.name, entityName: entity.name, keyPath: property.keyPath, metadata: attribute,
                                                  firstColumn: nextColumn, columnCount: attribute.columns.count))
                for details in attribute.columns {
                    let name = ([property.name] + details.path).joined(separator: ".")
                    columns.append(AttributeColumn(name: name, column: StorageNames.column(property: name, entity: entity.name, isRoot: isRoot),
                                                   entityName: entity.name, metadata: attribute, keyPath: details.keyPath ?? property.keyPath,
                                                   attributeIndex: nextIndex, propertyName: property.name, details: details))
                }
                nextIndex += 1
                nextColumn += attribute.columns.count
            }
            ownAttributes[entity.name] = attributes
            ownColumns[entity.name] = columns
        }
        // Select list: $pk, $type, the columns of every member (the root's first), then key columns (added later).
        var position: Int32 = 2
        var positions: [String: Int32] = [:]
        var seen: Set<String> = []
        for entity in hierarchy {
            for column in ownColumns[entity.name] ?? [] {
                if !seen.insert(column.column).inserted {
                    problems.append("\(entity.name).\(column.name): its column \"\(column.column)\" is also another property's column in table \(root.name)")
                }
                positions[column.column] = position
                position += 1
            }
        }
        for entity in hierarchy {
            let isRoot = entity === root
            entity.storedAttributes = isRoot ? ownAttributes[entity.name] ?? [] : (ownAttributes[root.name] ?? []) + (ownAttributes[entity.name] ?? [])
            entity.attributes = isRoot ? ownColumns[entity.name] ?? [] : (ownColumns[root.name] ?? []) + (ownColumns[entity.name] ?? [])
            entity.preservesValuesOnDeletion = entity.attributes.contains(where: \.isPreservedOnDeletion)
            entity.attributeResultColumns = entity.storedAttributes.map { positions[entity.attributes[$0.firstColumn].column] ?? 0 }
            entity.attributeValuePositions = entity.storedAttributes.map { Int32($0.firstColumn) }
            entity.valueResultColumns = entity.attributes.compactMap { positions[$0.column] }
            var names: [AnyKeyPath: String] = [:]
            var metadata: EntityMetadata? = entity.metadata
            while let current = metadata {
                for property in current.properties { names[property.keyPath] = property.name }
                metadata = current.base?.schemaMetadata
            }
            for inherited in entity.metadata.inheritedKeyPaths { names[inherited.keyPath] = inherited.name }
            // A struct's fields, by their full key paths (`\Theme.palette.primary`).
            for column in entity.attributes where column.details.keyPath != nil && !column.details.path.isEmpty {
                names[column.keyPath] = column.name
            }
            entity.propertyNamesByKeyPath = names
        }
    }

    /// Relationship schemas (shared by a base and its subclasses) and graph infos.
    private mutating func resolveRelationships(of entity: EntitySchema) {
        var relationships: [RelationshipSchema] = []
        if let baseName = entity.baseName, let base = self.entity(named: baseName) {
            if base.relationships.isEmpty && base.metadata.properties.contains(where: { $0.relationship != nil }) {
                resolveRelationships(of: base)
            }
            relationships = base.relationships
        }
        for property in entity.metadata.properties {
            guard let metadata = property.relationship else { continue }
            let relationship = RelationshipSchema(name: property.name, entityName: entity.name, metadata: metadata, keyPath: property.keyPath)
            relationship.destinationName = metadata.destination.schemaMetadata.name
            relationships.append(relationship)
        }
        entity.relationships = relationships
        let baseCount = relationships.count - entity.metadata.properties.count { $0.relationship != nil }
        for (offset, property) in entity.metadata.properties.filter({ $0.relationship != nil }).enumerated() where property.index != baseCount + offset {
            let slot = baseCount + offset
            problems.append("\(entity.name).\(property.name): the generated RelationshipIndex is \(property.index), but the relationship is number \(slot) "
                            + "of \(entity.name)'s relationships (the base's first): the generated code does not fit this ModelStore, regenerate it")
        }
        entity.relationshipInfos = RelationshipInfo.all(for: entity.type)
        entity.relationshipRoutes = RelationshipRoute.routes(entity.relationshipInfos)
        entity.followedOnDelete = entity.relationshipRoutes.filter(\.isFollowedOnDelete)
        entity.keySlots = relationships.indices.filter { !relationships[$0].isToMany }
        entity.unloadedSlots = ContiguousArray(repeating: .unloaded, count: relationships.count)
    }

    /// Storage of every relationship, and key-column positions in the select list.
    private mutating func resolveKeyColumns(of hierarchy: [EntitySchema]) {
        guard let root = hierarchy.first else { return }
        for entity in hierarchy {
            let isRoot = entity === root
            for relationship in entity.relationships where relationship.entityName == entity.name {
                let column = StorageNames.column(property: relationship.name, entity: entity.name, isRoot: isRoot)
                guard let destination = self.entity(named: relationship.destinationName) else {
                    problems.append("\(entity.name).\(relationship.name): unknown destination \(relationship.destinationName)")
                    continue
                }
                let inverse = relationship.inverseName.flatMap { destination.relationship(named: $0) }
                if relationship.inverseName != nil && inverse == nil {
                    problems.append("\(entity.name).\(relationship.name): inverse \(relationship.inverseName!) not found on \(destination.name)")
                }
                if !relationship.isToMany {
                    relationship.storage = .keyColumn(column)
                } else if let inverse, !inverse.isToMany {
                    let inverseOwner = self.entity(named: inverse.entityName)
                    let inverseColumn = StorageNames.column(property: inverse.name, entity: inverse.entityName,
                                                            isRoot: inverseOwner?.baseName == nil)
                    relationship.storage = .inverseKeyColumn(table: destination.tableName, column: inverseColumn)
                } else if let inverse {
                    let mine = entity.name + "." + relationship.name
                    let theirs = inverse.entityName + "." + inverse.name
                    let table = min(mine, theirs)
                    relationship.storage = mine <= theirs
                        ? .joinTable(table: table, ownColumn: StorageNames.source, otherColumn: StorageNames.target)
                        : .joinTable(table: table, ownColumn: StorageNames.target, otherColumn: StorageNames.source)
                } else {
                    relationship.storage = .joinTable(table: entity.name + "." + relationship.name,
                                                      ownColumn: StorageNames.source, otherColumn: StorageNames.target)
                }
            }
        }
        // Key columns follow all attribute columns in the select list, root's first.
        var position = Int32(2 + hierarchy.reduce(0) { total, entity in total + entity.attributes.count { $0.entityName == entity.name } })
        var positions: [String: Int32] = [:]
        for entity in hierarchy {
            for relationship in entity.relationships where relationship.entityName == entity.name {
                if case .keyColumn(let column) = relationship.storage {
                    positions[column] = position
                    position += 1
                }
            }
        }
        var selectList = [StorageNames.primaryKey, StorageNames.type]
        for entity in hierarchy {
            selectList += entity.attributes.filter { $0.entityName == entity.name }.map(\.column)
        }
        selectList += positions.sorted { $0.value < $1.value }.map(\.key)
        let selectSQL = "SELECT " + selectList.map(SQLQuote.identifier).joined(separator: ", ")
            + " FROM " + SQLQuote.identifier(root.name)
        for entity in hierarchy {
            entity.selectSQL = selectSQL
            entity.keyOrderSQL = SortSQL.orderBy([], entity: entity).sql
            entity.selectColumns = selectList
            entity.keyResultColumns = entity.keySlots.map { slot in
                if case .keyColumn(let column) = entity.relationships[slot].storage { return positions[column] ?? 0 }
                return 0
            }
        }
    }

    // MARK: Storage description

    private mutating func describe(_ hierarchy: [EntitySchema]) {
        guard let root = hierarchy.first else { return }
        storage.entities += hierarchy.map(Self.describeEntity)
        var columns: [StoredColumn] = []
        var uniques: [[String]] = []
        var indexes: [[String]] = []
        for entity in hierarchy {
            let isRoot = entity === root
            for attribute in entity.attributes where attribute.entityName == entity.name {
                let meta = attribute.metadata
                let details = attribute.details
                // A literal default is the attribute's own column's (a struct's fields have none).
                let isPlain = details.path.isEmpty && !details.isPresence && meta.columns.count == 1
                columns.append(StoredColumn(
                    name: attribute.column, type: details.columnType.rawValue, storage: details.storageType, isRequired: !details.isNullable,
                    requiredFor: isRoot || details.isNullable ? nil : entity.name,
                    defaultLiteral: isPlain ? meta.defaultValue.map { SQLQuote.literal($0) } : nil,
                    references: nil, isKey: false,
                    previousName: meta.originalName.map {
                        StorageNames.column(property: ([$0] + details.path).joined(separator: "."), entity: entity.name, isRoot: isRoot)
                    }))
            }
            var groups = entity.metadata.uniqueConstraints
            for attribute in entity.storedAttributes where attribute.entityName == entity.name && attribute.metadata.options.contains(.unique) {
                if !groups.contains([attribute.name]) { groups.append([attribute.name]) }
            }
            for group in groups {
                let resolved = group.flatMap { entity.valueColumns(ofProperty: $0) }
                if !uniques.contains(resolved) { uniques.append(resolved) }
            }
            for group in entity.metadata.indexes {
                let resolved = group.flatMap { entity.valueColumns(ofProperty: $0) }
                if !indexes.contains(resolved) { indexes.append(resolved) }
            }
        }
        for entity in hierarchy {
            for relationship in entity.relationships where relationship.entityName == entity.name {
                guard case .keyColumn(let column) = relationship.storage,
                      let destination = self.entity(named: relationship.destinationName) else { continue }
                // A key whose inverse is .noAction may dangle: it gets no foreign key constraint.
                let inverse = relationship.inverseName.flatMap { destination.relationship(named: $0) }
                let dangles = inverse?.deleteRule == .noAction
                let originalName = entity.metadata.properties.first { $0.name == relationship.name }?.relationship?.originalName
                columns.append(StoredColumn(name: column, type: SQLColumnType.integer.rawValue, storage: .integer, isRequired: false,
                                            requiredFor: nil, defaultLiteral: nil,
                                            references: dangles ? nil : destination.tableName, isKey: true,
                                            previousName: originalName.map {
                                                StorageNames.column(property: $0, entity: entity.name, isRoot: entity === root)
                                            }))
                indexes.append([column])
            }
        }
        for entity in hierarchy {
            entity.uniqueColumnGroups = uniques.filter { group in
                group.allSatisfy { column in entity.attributes.contains { $0.column == column } }
            }
        }
        storage.tables.append(StoredTable(name: root.name, entities: hierarchy.map(\.name), columns: columns, uniques: uniques, indexes: indexes,
                                          isJoinTable: false, joinReferences: []))
    }

    /// The entity as the stored schema records it.
    private static func describeEntity(_ entity: EntitySchema) -> StoredEntity {
        var uniques = entity.metadata.uniqueConstraints
        let properties = entity.metadata.properties.map { property -> StoredProperty in
            switch property.kind {
            case .attribute(let attribute):
                if attribute.options.contains(.unique), !uniques.contains([property.name]) { uniques.append([property.name]) }
                let options = attribute.options.map(\.rawValue).sorted()
                return StoredProperty(name: property.name, kind: .attribute, originalName: attribute.originalName,
                                      type: attribute.valueType, isOptional: attribute.isOptional,
                                      defaultValue: attribute.defaultValue.map { SQLQuote.literal($0) },
                                      options: options.isEmpty ? nil : options,
                                      enumCases: attribute.enumCases.map { $0.map { SQLQuote.literal($0) } }, fields: attribute.fields)
            case .relationship(let relationship):
                return StoredProperty(name: property.name, kind: relationship.isToMany ? .toMany : .toOne,
                                      originalName: relationship.originalName, isOptional: !relationship.isToMany,
                                      destination: relationship.destination.schemaMetadata.name, inverse: relationship.inverse,
                                      deleteRule: relationship.deleteRule, minimumModelCount: relationship.minimumModelCount,
                                      maximumModelCount: relationship.maximumModelCount)
            }
        }
        return StoredEntity(name: entity.name, base: entity.baseName, originalName: entity.metadata.originalName,
                            properties: properties, uniqueConstraints: uniques, indexes: entity.metadata.indexes)
    }

    private mutating func describeJoinTables() {
        var done: Set<String> = []
        for entity in entities {
            for relationship in entity.relationships where relationship.entityName == entity.name {
                guard case .joinTable(let table, let ownColumn, _) = relationship.storage,
                      done.insert(table).inserted,
                      let destination = self.entity(named: relationship.destinationName) else { continue }
                let references = ownColumn == StorageNames.source
                    ? [entity.tableName, destination.tableName] : [destination.tableName, entity.tableName]
                storage.tables.append(StoredTable(name: table, entities: [], columns: [], uniques: [], indexes: [[StorageNames.target]],
                                                  isJoinTable: true, joinReferences: references))
            }
        }
    }
}
