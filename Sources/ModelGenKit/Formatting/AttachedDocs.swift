// Which `///` comments the parser attached to a declaration. A `///` comment attached to nothing
// (before a `;`, a `,`, a `{`) must not end up right above a declaration after formatting, or
// it would become that declaration's doc comment.

/// The source ranges of the doc comments attached to declarations, members and cases of a file.
struct AttachedDocs {
    private var ranges: [SourceRange] = []

    init(_ file: ModelFile) {
        for declaration in file.declarations {
            switch declaration {
            case .entity(let entity):
                add(entity.doc)
                for member in entity.members {
                    switch member {
                    case .property(let property): add(property.doc)
                    case .initializer(let initializer): add(initializer.doc)
                    case .enumeration(let enumeration): add(enumeration)
                    case .structure(let structure): add(structure)
                    case .constraint: break
                    }
                }
            case .enumeration(let enumeration): add(enumeration)
            case .container(let container): add(container.doc)
            case .structure(let structure): add(structure)
            case .migration(let migration): add(migration.doc)
            case .modelActor(let actor): add(actor.doc)
            }
        }
        ranges.sort { $0.start.offset < $1.start.offset }
    }

    /// Whether `comment` is a `///` line that the parser attached to nothing.
    func isDetachedDoc(_ comment: Comment) -> Bool {
        guard comment.kind == .doc else { return false }
        let offset = comment.range.start.offset
        // The ranges do not overlap and are sorted: find the last one starting at or before `offset`.
        var low = 0
        var high = ranges.count
        while low < high {
            let middle = (low + high) / 2
            if ranges[middle].start.offset <= offset { low = middle + 1 } else { high = middle }
        }
        guard low > 0 else { return true }
        return offset >= ranges[low - 1].end.offset
    }

    private mutating func add(_ enumeration: EnumDecl) {
        add(enumeration.doc)
        for enumCase in enumeration.cases { add(enumCase.doc) }
    }

    private mutating func add(_ structure: StructDecl) {
        add(structure.doc)
        for field in structure.fields { add(field.doc) }
    }

    private mutating func add(_ doc: DocComment?) {
        if let doc { ranges.append(doc.range) }
    }
}
