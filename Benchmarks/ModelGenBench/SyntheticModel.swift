/// Synthesized `.model` sources for the generator benchmark: groups of four entities (a base,
/// two subclasses, a part owned by the base with a cascading to-many and its inverse), each base
/// also pointing at the previous group's base, an enum per group, and one container.
struct SyntheticModel {
    /// Entities per group.
    static let groupSize = 4

    /// The files of a model of `entityCount` entities (rounded up to whole groups), at most
    /// `entitiesPerFile` entities per file; the container is in the last file.
    static func files(entityCount: Int, entitiesPerFile: Int = 100) -> [(path: String, text: String)] {
        let groups = max(1, (entityCount + groupSize - 1) / groupSize)
        let groupsPerFile = max(1, entitiesPerFile / groupSize)
        var files: [(path: String, text: String)] = []
        var group = 0
        while group < groups {
            let end = min(groups, group + groupsPerFile)
            var text = "// Synthesized for modelgen-bench: groups \(group) to \(end - 1).\n\n"
            for number in group..<end { text += groupText(number) }
            if end == groups {
                let members = (0..<groups).flatMap { ["Base\($0)", "Part\($0)"] }
                text += "container SyntheticStore {\n    " + members.joined(separator: ",\n    ") + "\n}\n"
            }
            files.append((path: "Synthetic\(files.count).model", text: text))
            group = end
        }
        return files
    }

    /// One group's declarations.
    static func groupText(_ number: Int) -> String {
        let previous = number > 0 ? "\n    previous: Base\(number - 1)?\n" : ""
        return """
        /// Base entity \(number).
        entity Base\(number) {
            /// The kind of group \(number).
            enum Kind: String, Codable {
                case small
                case large
            }

            name: String
            created: Date
            count: Int = 0
            score: Double?
            kind: Kind = .small
            tags: [String] = []
            @Attribute(.unique)
            code: String
        \(previous)
            @Relationship(deleteRule: .cascade, inverse: \\Part\(number).owner)
            parts: [Part\(number)] = []

            init(name, created, code)
        }

        /// First subclass of group \(number).
        entity Sub\(number)A: Base\(number) {
            company: String
            note: String?

            init(name, created, code, company) {
                super.init(name, created, code)
            }
        }

        /// Second subclass of group \(number).
        entity Sub\(number)B: Base\(number) {
            rating: Int
            flagged: Bool = false

            init(name, created, code, rating) {
                super.init(name, created, code)
            }
        }

        /// Part of group \(number).
        entity Part\(number) {
            label: String
            weight: Double = 1.0
            @Relationship(inverse: \\Base\(number).parts)
            owner: Base\(number)?

            init(label)
        }


        """
    }
}
