// The VS Code side of `modelgen lsp` (docs/Editors.md): starts the server over standard input and
// output for .model and .modelversion files. Needs `npm install` in this folder (vscode-languageclient).
const vscode = require("vscode");
const { LanguageClient, TransportKind } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const command = vscode.workspace.getConfiguration("modelgen").get("path") || "modelgen";
  const server = { command, args: ["lsp"], transport: TransportKind.stdio };
  client = new LanguageClient(
    "modelgen",
    "ModelGen",
    { run: server, debug: server },
    {
      documentSelector: [
        { scheme: "file", language: "model" },
        { scheme: "untitled", language: "model" },
      ],
      synchronize: {
        // Created, changed and deleted model files and configurations re-check the workspace.
        fileEvents: vscode.workspace.createFileSystemWatcher("**/{*.model,*.modelversion,modelgen.json}"),
      },
    }
  );
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
