// Collects the declarations of all files into one `SemanticModel`. Entities, top-level enums,
// structs, containers and model actors share one namespace (each becomes a Swift type of that name); enums and
// structs nested in an entity share the entity's namespace. The first declaration of a name wins; the others are
// returned as duplicates for `NameRules` to report.

/// A declaration whose name was already taken.
struct DuplicateDeclaration {
    /// What the duplicate is ("entity", "enum", "struct", "container").
    var kind: String
    var name: Identifier
    /// The name of the declaration that came first.
    var first: Identifier
    /// The entity both are nested in, for nested enums and structs.
    var scope: String?
}

enum SymbolTable {
    /// Fills `model` with every declaration of `files` (in input order) and returns the duplicates.
    static func collect(_ files: [ModelFile], into model: inout SemanticModel) -> [DuplicateDeclaration] {
        var duplicates: [DuplicateDeclaration] = []
        var taken: [String: Identifier] = [:]
        model.filePaths = files.map(\.source.path)
        // Sized once: a table that grows holds its old and new storage at once while it moves.
        let declarationCount = files.reduce(0) { $0 + $1.declarations.count }
        taken.reserveCapacity(declarationCount)
        model.entities.reserveCapacity(files.reduce(0) { count, file in count + file.declarations.count { if case .entity = $0 { true } else { false } } })

        func claim(_ name: Identifier, kind: String) -> Bool {
            if let first = taken[name.name] {
                duplicates.append(DuplicateDeclaration(kind: kind, name: name, first: first, scope: nil))
                return false
            }
            taken[name.name] = name
            return true
        }

        for file in files {
            for declaration in file.declarations {
                switch declaration {
                case .entity(let decl):
                    guard claim(decl.name, kind: "entity") else { continue }
                    var info = EntityInfo(decl: decl)
                    collectNestedTypes(of: decl, into: &info, model: &model, duplicates: &duplicates)
                    model.entities[decl.name.name] = info
                    model.entityOrder.append(decl.name.name)
                case .enumeration(let decl):
                    guard claim(decl.name, kind: "enum") else { continue }
                    model.topLevelEnums[decl.name.name] = EnumInfo(decl: decl, qualifiedName: decl.name.name, ownerEntity: nil)
                    model.topLevelEnumOrder.append(decl.name.name)
                case .container(let decl):
                    guard claim(decl.name, kind: "container") else { continue }
                    model.containers.append(ContainerInfo(decl: decl))
                case .structure(let decl):
                    guard claim(decl.name, kind: "struct") else { continue }
                    model.structs[decl.name.name] = StructInfo(decl: decl, qualifiedName: decl.name.name, ownerEntity: nil)
                    model.structOrder.append(decl.name.name)
                case .migration:
                    // About the history, not the schema: checked by `HistoryChecker`.
                    continue
                case .modelActor(let decl):
                    guard claim(decl.name, kind: "actor") else { continue }
                    model.modelActors.append(decl)
                }
            }
        }
        return duplicates
    }

    /// The enums and structs declared inside an entity; they share the entity's namespace.
    private static func collectNestedTypes(of decl: EntityDecl, into info: inout EntityInfo, model: inout SemanticModel, duplicates: inout [DuplicateDeclaration]) {
        let entity = decl.name.name
        var taken: [String: Identifier] = [:]
        func claim(_ name: Identifier, kind: String) -> Bool {
            if let first = taken[name.name] {
                duplicates.append(DuplicateDeclaration(kind: kind, name: name, first: first, scope: entity))
                return false
            }
            taken[name.name] = name
            return true
        }
        for member in decl.members {
            switch member {
            case .enumeration(let nested):
                guard claim(nested.name, kind: "enum") else { continue }
                let name = nested.name.name
                info.nestedEnums[name] = EnumInfo(decl: nested, qualifiedName: "\(entity).\(name)", ownerEntity: entity)
                info.nestedEnumOrder.append(name)
            case .structure(let nested):
                guard claim(nested.name, kind: "struct") else { continue }
                let qualified = "\(entity).\(nested.name.name)"
                info.nestedStructNames.insert(nested.name.name)
                model.structs[qualified] = StructInfo(decl: nested, qualifiedName: qualified, ownerEntity: entity)
                model.structOrder.append(qualified)
            default:
                continue
            }
        }
    }
}
