import Foundation
import ModelGenCommandLine

// The `modelgen` command-line tool: every command of ModelGenCommandLine, and `pull`, which reads a
// store through ModelStore (see `CommandLineTool`).
let status = CommandLineTool.run(Array(CommandLine.arguments.dropFirst()), console: Console(), adding: [PullCommand.self])
exit(status)
