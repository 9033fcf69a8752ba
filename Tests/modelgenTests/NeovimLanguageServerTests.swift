import Foundation
import Testing

/// A real editor on `modelgen lsp`: Neovim (Debian's `neovim` package), headless, with its
/// built-in LSP client started on the built binary, opens a model of a SwiftPM target, breaks a
/// type, reads the diagnostics, fixes it, renames an entity across two files and saves them; the
/// saved files must then check with `modelgen lint`. Skipped, saying so, when `nvim` is missing.
@Suite struct NeovimLanguageServerTests {
    static let nvim: String? = {
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":") {
            let candidate = "\(folder)/nvim"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }()

    /// The session, in Lua; Neovim 0.7 (Debian 12) has `vim.lsp.start_client`, later ones also
    /// `vim.lsp.start`. Each step logs a line to $RESULT; the last line is "done" or "failed: …".
    static let script = #"""
    local modelgen, root, result = os.getenv("MODELGEN"), os.getenv("WORKSPACE"), os.getenv("RESULT")
    local lines = {}
    local function log(text) table.insert(lines, text) end
    local function finish(status)
      log(status)
      local file = io.open(result, "w"); file:write(table.concat(lines, "\n") .. "\n"); file:close()
      vim.cmd("qa!")
    end
    local function wait(what, condition)
      if not vim.wait(30000, condition, 20) then finish("failed: no " .. what .. " within 30 s") error("stop") end
    end
    local ok, message = pcall(function()
      vim.cmd("edit " .. root .. "/Sources/App/Trips.model")
      local buffer = vim.api.nvim_get_current_buf()
      vim.bo[buffer].filetype = "model"
      local ready = false
      local client = vim.lsp.start_client({
        name = "modelgen", cmd = { modelgen, "lsp" }, root_dir = root,
        workspace_folders = { { uri = vim.uri_from_fname(root), name = "root" } },
        on_init = function() ready = true end,
      })
      vim.lsp.buf_attach_client(buffer, client)
      wait("initialize", function() return ready end)
      log("initialized")
      -- Break a type: `name: String` (line 3) becomes `name: Strng`.
      vim.api.nvim_buf_set_text(buffer, 2, 10, 2, 16, { "Strng" })
      wait("diagnostics", function() return #vim.diagnostic.get(buffer) > 0 end)
      for _, d in ipairs(vim.diagnostic.get(buffer)) do
        local code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code)
        log(string.format("diagnostic %d:%d %s %s", d.lnum, d.col, tostring(code), (d.message:gsub("\n.*", ""))))
      end
      vim.api.nvim_buf_set_text(buffer, 2, 10, 2, 15, { "String" })
      wait("empty diagnostics", function() return #vim.diagnostic.get(buffer) == 0 end)
      log("fixed")
      -- Rename the entity `Trip` (line 2, on its name) to `Journey`, across both files.
      vim.api.nvim_win_set_cursor(0, { 2, 8 })
      vim.lsp.buf.rename("Journey")
      wait("rename", function()
        return vim.api.nvim_buf_get_lines(buffer, 1, 2, false)[1] == "entity Journey {"
      end)
      local stays = vim.fn.bufnr(root .. "/Sources/App/Stays.model")
      wait("rename in Stays.model", function()
        return stays > 0 and table.concat(vim.api.nvim_buf_get_lines(stays, 0, -1, false), "\n"):find("\\Journey.stays", 1, true) ~= nil
      end)
      log("renamed")
      vim.cmd("silent wall")
      vim.lsp.stop_client(client)
      wait("server exit", function() return vim.lsp.get_client_by_id(client) == nil end)
      log("stopped")
    end)
    if ok then finish("done") elseif message ~= "stop" and not tostring(message):find("stop$") then finish("failed: " .. tostring(message)) end
    """#

    @Test(.enabled(if: nvim != nil, "nvim is not installed: apt-get install -y neovim"))
    func neovimSession() throws {
        let root = try TemporaryFolder.make([
            "Sources/App/Trips.model": LanguageServerCLITests.trips,
            "Sources/App/Stays.model": LanguageServerCLITests.stays,
            "session.lua": Self.script,
        ], prefix: "modelgen-nvim")
        defer { try? FileManager.default.removeItem(at: root) }
        let result = root.appendingPathComponent("result.txt")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(Self.nvim))
        process.arguments = ["--headless", "-u", "NONE", "-i", "NONE", "-n", "-c", "luafile " + root.appendingPathComponent("session.lua").path]
        process.currentDirectoryURL = root
        var environment = ProcessInfo.processInfo.environment
        environment["MODELGEN"] = ToolRunner.executable.path
        environment["WORKSPACE"] = root.path
        environment["RESULT"] = result.path
        environment["HOME"] = root.path
        environment["XDG_STATE_HOME"] = root.path
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date(timeIntervalSinceNow: 180)
        while process.isRunning, Date() < deadline { usleep(20_000) }
        if process.isRunning { process.terminate() }
        let log = (try? String(contentsOf: result, encoding: .utf8)) ?? "(no result: nvim exited with \(process.terminationStatus))"
        let lines = log.split(separator: "\n").map(String.init)
        #expect(lines.last == "done", "\(log)")
        #expect(lines.contains("initialized"))
        #expect(lines.contains {
            $0.hasPrefix("diagnostic 2:10 unknown-type unknown type 'Strng' of 'Trip.name'")
        }, "\(log)")
        #expect(lines.contains("renamed") && lines.contains("stopped"))
        // What Neovim saved checks.
        let app = root.appendingPathComponent("Sources/App")
        let trips = try String(contentsOf: app.appendingPathComponent("Trips.model"), encoding: .utf8)
        #expect(trips.contains("entity Journey {") && trips.contains("entity BusinessTrip: Journey {"))
        let lint = try ToolRunner.run(["lint", app.path])
        #expect(lint.status == 0, "\(lint.stderr)")
    }
}
