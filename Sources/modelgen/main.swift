import Foundation

// The `modelgen` command-line tool: dispatches to one command (see `CommandLineTool`).
let status = CommandLineTool.run(Array(CommandLine.arguments.dropFirst()), console: Console())
exit(status)
