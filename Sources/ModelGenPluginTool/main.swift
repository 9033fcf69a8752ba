import Foundation
import ModelGenCommandLine

// The tool ModelGenPlugin and GenerateModels run: `modelgen` without `pull`, so it does not depend
// on ModelStore (see `CommandLineTool`).
let status = CommandLineTool.run(Array(CommandLine.arguments.dropFirst()), console: Console())
exit(status)
