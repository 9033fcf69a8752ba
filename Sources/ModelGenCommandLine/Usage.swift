/// The help texts of every command of docs/CommandLine.md (also of those another part of the tool implements).
enum Usage {
    static let overview = """
    OVERVIEW: turn .model files into Swift persistence code on SQLite with SwiftData's API

    USAGE:
      modelgen generate [--output DIR] [--access-level internal|public|package] [--templates DIR]
                        [--check] [--models-in-version] [--warnings-as-errors]
                        [--diagnostics-format text|json] INPUT...
      modelgen lint     [--warnings-as-errors] [--diagnostics-format text|json] INPUT...
      modelgen format   [--check | --in-place] INPUT...
      modelgen diagram  [--format mermaid|dot] INPUT...
      modelgen freeze   --version V [--output DIR] INPUT...
      modelgen migrations INPUT...
      modelgen import   [--output DIR] [--force] FILE.swift...
      modelgen pull     --url URL [--output FILE] [--force]
      modelgen lsp
      modelgen --help | help [COMMAND] | --version

    Every command that reads models also takes --config FILE: a modelgen.json whose settings
    ({"accessLevel": "public"}, …) apply under the command-line flags.

    COMMANDS:
      generate   Check the models and write one Swift file per model file
      lint       Check the models and report diagnostics
      format     Rewrite model files in the canonical layout
      diagram    Print the entities and relationships as a Mermaid or DOT diagram
      freeze     Write the model as a frozen version (V.modelversion) of its history
      migrations Print the migration plan: each step between versions, each change
      import     Write the .model file of SwiftData @Model classes (and their history)
      pull       Write the .model file a ModelStore store was written with
      lsp        Serve the language server protocol to an editor (on standard input/output)
      help       Show help for a command

    INPUT is .model files or folders (searched recursively); all inputs form one schema.
    .modelversion files among them (or in the folders) are the model's frozen versions.
    See 'modelgen help COMMAND' for a command's options.

    """

    static let generate = """
    OVERVIEW: check the models and write one Swift file per model file

    USAGE: modelgen generate [--output DIR] [--access-level internal|public|package]
                             [--templates DIR] [--check] [--models-in-version] [--warnings-as-errors]
                             [--diagnostics-format text|json] [--config FILE] INPUT...

    OPTIONS:
      --output DIR              Folder for the generated files (default: .)
                                Stem.model gives Stem.model.swift; Travel/Trips.model
                                found in a folder input gives Travel_Trips.model.swift
      --access-level LEVEL      internal (default), public or package
      --templates DIR           Templates that replace the built-in ones of the same name
      --check                   Write nothing; exit 1 naming each missing or stale output
      --models-in-version       The model's classes only inside its frozen version's enum
                                (SchemaV3_0_0.Trip), no top-level names: the app writes
                                typealias SchemaLatest = SchemaV3_0_0 and its model typealiases
      --warnings-as-errors      Exit 1 when there are warnings
      --diagnostics-format F    text (default, on standard error) or json (on standard output)
      --config FILE             Settings from a modelgen.json: accessLevel, templates, output
                                (folders relative to the file), warningsAsErrors,
                                diagnosticsFormat, modelsInVersion; flags given here override them

    EXIT STATUS: 0 done, 1 model errors or stale output, 2 bad usage, unreadable input or
                 configuration, inputs over 16 MB, or unwritable output.

    """

    static let lint = """
    OVERVIEW: check the models and report diagnostics (nothing is written)

    USAGE: modelgen lint [--warnings-as-errors] [--diagnostics-format text|json] [--config FILE] INPUT...

    OPTIONS:
      --warnings-as-errors      Exit 1 when there are warnings
      --diagnostics-format F    text (default): diagnostics then a summary line such as
                                '1 error, 2 warnings' on standard error;
                                json: one JSON array on standard output
      --config FILE             Settings from a modelgen.json (warningsAsErrors,
                                diagnosticsFormat); flags given here override them

    EXIT STATUS: 0 no errors (warnings allowed), 1 errors (or warnings with
                 --warnings-as-errors), 2 bad usage, unreadable input or no .model file found.

    """

    static let format = """
    OVERVIEW: rewrite model files in the canonical layout (comments are kept)

    USAGE: modelgen format [--check | --in-place] [--config FILE] INPUT...

    OPTIONS:
      --check       Write nothing; exit 1 naming each file that is not formatted
      --in-place    Rewrite the files (without it the formatted text goes to standard output)
      --config FILE A modelgen.json, checked (none of its settings changes formatting)

    """

    static let diagram = """
    OVERVIEW: print the entities, their inheritance and relationships as a diagram

    USAGE: modelgen diagram [--format mermaid|dot] [--config FILE] INPUT...

    OPTIONS:
      --format F    mermaid (default) or dot
      --config FILE A modelgen.json, checked (none of its settings changes a diagram)

    """

    static let freeze = """
    OVERVIEW: write the model, checked, as a frozen version of its history (V.modelversion)

    USAGE: modelgen freeze --version V [--output DIR] [--config FILE] INPUT...

    OPTIONS:
      --version V       The version, MAJOR[.MINOR[.PATCH]] (1.0.0); later than every frozen one
      --output DIR      Folder of the versions (default: ModelVersions in the first input
                        folder, or beside the first input file)
      --config FILE     A modelgen.json, checked (none of its settings changes a version)

    The version file holds the model's .model files in canonical text, doc comments kept,
    'migration' declarations left out. A frozen version is never rewritten: freezing the same
    model again as the same version changes nothing; another model as an existing version, or a
    version older than a frozen one, is refused.

    EXIT STATUS: 0 frozen (or frozen already, identical), 1 the model has errors or the version
                 is refused, 2 bad usage, unreadable input or unwritable folder.

    """

    static let migrations = """
    OVERVIEW: print the migration plan: each step between frozen versions, each change, and
    whether it is inferred or needs a custom stage's code

    USAGE: modelgen migrations [--warnings-as-errors] [--diagnostics-format text|json]
                               [--config FILE] INPUT...

    OPTIONS:
      --warnings-as-errors      Exit 1 when there are warnings
      --diagnostics-format F    text (default, on standard error) or json (on standard
                                output, instead of the plan)
      --config FILE             Settings from a modelgen.json (warningsAsErrors,
                                diagnosticsFormat)

    A step with a change that cannot be inferred needs 'migration "A" -> "B" { custom }' in
    the model and its code (reported as migration-not-inferable until declared).

    EXIT STATUS: as lint: 0 no errors, 1 errors, 2 bad usage or unreadable input.

    """

    static let lsp = """
    OVERVIEW: serve the Language Server Protocol for .model and .modelversion files to an
    editor, over standard input and output (JSON-RPC with Content-Length headers)

    USAGE: modelgen lsp [--stdio]

    OPTIONS:
      --stdio       Accepted and ignored (standard input and output are the only transport)

    The editor starts the server and names the workspace folders. Model files form schemas as
    the build plugin takes them: the folder holding a modelgen.json (its settings apply), else
    the SwiftPM target folder (inside Sources or Tests), else the file alone. The server
    publishes diagnostics as you type (rule ids as codes, notes as related information) and
    answers formatting, document symbols, hover, go to definition, find references, rename,
    completion and quick fixes. Setup for VS Code, Neovim, Emacs and Helix: docs/Editors.md.

    EXIT STATUS: 0 after the editor's shutdown and exit, 1 when the input ends or exit comes
                 without shutdown, 2 bad usage.

    """

    static let `import` = """
    OVERVIEW: write the .model file of Swift sources holding SwiftData models

    USAGE: modelgen import [--output DIR] [--force] INPUT...

    INPUT is .swift files or folders (searched recursively for .swift files).

    OPTIONS:
      --output DIR  Folder of the model (default: .): Stem.model for each Swift file
                    that declares models, ModelVersions/V.modelversion for each
                    VersionedSchema (a migration plan's custom stages become
                    'migration' declarations)
      --force       Replace files that exist with other content (without it nothing
                    is written then)

    Read: @Model classes (stored properties, defaults, @Attribute, @Relationship,
    @Transient, #Unique, #Index, designated inits), the Codable structs and enums they
    use, VersionedSchema and SchemaMigrationPlan enums, typealiases; of '#if', the first
    branch. Each thing not imported (computed properties, methods, extensions, init
    statements beyond assignments) is reported as 'FILE:LINE: note:' saying where it
    must go. The files are formatted as 'format' writes them, then linted.

    EXIT STATUS: 0 imported (or up to date), 1 a Swift file cannot be read, the imported
                 model has errors (the files are written) or a file exists with other
                 content, 2 bad usage, unreadable input or unwritable output.

    """

    static let pull = """
    OVERVIEW: write the .model file a ModelStore store was written with

    USAGE: modelgen pull --url URL [--output FILE] [--force]

    OPTIONS:
      --url URL      The store: a SQLite file (path or file: URL) or a postgresql:// URL
                     as ModelConfiguration(url:) takes it
      --output FILE  Where to write the model (default: standard output)
      --force        Replace FILE when it exists with other content (without it nothing
                     is written then)

    Every store opened by an app whose models modelgen generated records the .model
    files they were generated from; the store is opened read-only. A schema generated
    from several files is written as one, each file after a '// From PATH' comment.
    The model is then linted.

    EXIT STATUS: 0 pulled, 1 the store records no model or cannot be read, the pulled
                 model has errors (it is written) or FILE exists with other content,
                 2 bad usage or unwritable output.

    """

    static let help = """
    OVERVIEW: show help for modelgen or one of its commands

    USAGE: modelgen help [COMMAND]

    """

    /// The help text of `command`, or nil for an unknown command.
    static func text(for command: String) -> String? {
        switch command {
        case "generate": generate
        case "lint": lint
        case "format": format
        case "diagram": diagram
        case "freeze": freeze
        case "migrations": migrations
        case "import": `import`
        case "pull": pull
        case "lsp": lsp
        case "help": help
        default: nil
        }
    }
}
