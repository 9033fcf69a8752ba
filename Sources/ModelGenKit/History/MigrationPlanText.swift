/// The history as `modelgen migrations` prints it: the versions, the plans, then each step with
/// each change and how it migrates.
enum MigrationPlanText {
    /// What a model without a frozen version prints.
    static let noHistory = "No frozen version: the model has no history yet. 'modelgen freeze --version 1.0.0' freezes it.\n"

    static func render(_ history: MigrationHistory) -> String {
        var lines: [String] = []
        lines.append("Versions: " + history.versions.map { "\($0.version) (\($0.path))" }.joined(separator: ", "))
        lines.append("Plans: " + history.planNames.joined(separator: ", "))
        for step in history.steps {
            guard let to = step.to else { continue }
            lines.append("")
            let head = "\(step.from) → \(to)"
            if step.changes.contains(where: { $0.classification == .impossible }) {
                lines.append(head + ": impossible, whatever the code (see the error)")
            } else if step.isCustom {
                let plans = history.planNames.count == 1 ? history.planNames[0] : "each plan"
                lines.append(head + ": custom: \(step.willMigrateName)(_:) and \(step.didMigrateName)(_:) in an extension of \(plans)")
            } else if step.needsCode {
                lines.append(head + ": not inferable: declare it custom in the model: migration \"\(step.from)\" -> \"\(to)\" { custom }")
            } else {
                lines.append(head + ": lightweight")
            }
            lines += changeLines(step)
        }
        lines.append("")
        if let step = history.unfrozenStep {
            let head = "\(step.from) → current model (changed, not frozen)"
            if step.changes.contains(where: { $0.classification != .inferred }) {
                lines.append(head + ": not inferable: freeze the model as a new version, then declare that step custom")
            } else {
                lines.append(head + ": inferred at run time; freeze the model before shipping it ('modelgen freeze --version V')")
            }
            lines += changeLines(step)
        } else if let newest = history.versions.last {
            lines.append("The current model is version \(newest.version).")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func changeLines(_ step: MigrationHistory.Step) -> [String] {
        if step.changes.isEmpty { return ["    (no change to the stored schema)"] }
        return step.changes.map { change in
            let word: String
            switch change.classification {
            case .inferred: word = "inferred"
            case .needsCode: word = step.isCustom ? "custom" : "needs code"
            case .impossible: word = "impossible"
            }
            return "    " + word + String(repeating: " ", count: max(1, 12 - word.count)) + change.description
        }
    }
}
