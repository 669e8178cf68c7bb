import ArgumentParser
import ContractTools
import HybridHost
import SystemIO

struct InitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Write a new app that runs and passes its test.",
        discussion: """
            Makes the folder PATH with app.json, package.json ("type": "module"), a main module \
            that calls two services (device, kv), a module it imports, a passing test file, a \
            README, and with --typescript a tsconfig.json wired to types/hybrid.d.ts (the JS API's \
            declarations, generated from this host's contracts, and the web platform's globals the \
            host has, instead of TypeScript's DOM library). Then: hybrid run PATH; hybrid test PATH. Refuses a folder that exists and is not empty.
            """
    )

    @Argument(help: "The app's folder (its last component is the app's name).")
    var path: String

    @Flag(help: "Write TypeScript (main.ts, main.test.ts, tsconfig.json).")
    var typescript = false

    func run() throws {
        let name = String(path.split(separator: "/").last ?? "")
        guard AppTemplate.isValidName(name) else {
            throw CLIFailure(message: "hybrid init: \(path): expected a folder name of letters, digits, '-', '_' or '.', not starting with '.'", code: 2)
        }
        if let entries = FileSystem.entries(ifFolder: path), !entries.isEmpty {
            throw CLIFailure(message: "hybrid init: \(path) exists and is not empty; choose a new folder", code: 2)
        }
        if FileSystem.kind(of: path) == .file {
            throw CLIFailure(message: "hybrid init: \(path) is a file; choose a new folder", code: 2)
        }
        var files = AppTemplate.files(name: name, typescript: typescript)
        if typescript {
            // The declarations of this host's contracts, with js/types/declared.d.ts.in and
            // web.d.ts.in as this build embeds them (the app lives outside the repository).
            let contracts = try HostServices.contracts()
            files["types/hybrid.d.ts"] = TypeScriptDeclarations.generate(
                contracts: contracts.keys.sorted().map { contracts[$0]!.json },
                declared: ContractsCommand.TypeScript.declaredText(DeclaredTypeScript.sources.map(\.source)))
        }
        for (file, text) in files.sorted(by: { $0.key < $1.key }) {
            let target = path + "/" + file
            try FileSystem.createDirectories(FileSystem.directory(of: target))
            try FileSystem.write(text, to: target)
        }
        print("""
            Wrote \(path)/ (\(files.keys.sorted().joined(separator: ", "))).
              hybrid run \(path)
              hybrid test \(path)
            """)
    }
}

/// The files of a new app: small, runnable, tested, and an example of the house style.
enum AppTemplate {
    static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && !name.hasPrefix(".")
            && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == ".") }
    }

    static func files(name: String, typescript: Bool) -> [String: String] {
        let ext = typescript ? "ts" : "js"
        var files: [String: String] = [
            "app.json": """
                {"name": "\(name)", "version": "0.1.0", "main": "main.\(ext)", "grants": ["device", "kv"]}

                """,
            "package.json": """
                {"name": "\(name)", "version": "0.1.0", "private": true, "type": "module"}

                """,
            "main.\(ext)": main(typescript: typescript),
            "greeting.\(ext)": greeting(typescript: typescript),
            "main.test.\(ext)": test(typescript: typescript),
            "README.md": readme(name: name, ext: ext, typescript: typescript),
        ]
        if typescript {
            files["tsconfig.json"] = """
                {
                  "compilerOptions": {
                    "target": "ES2022",
                    "module": "ES2022",
                    "moduleResolution": "node",
                    "lib": ["ES2022"],
                    "strict": true,
                    "noEmit": true,
                    "types": []
                  },
                  "include": ["**/*.ts"]
                }

                """
        }
        return files
    }

    static func main(typescript: Bool) -> String {
        let count = typescript ? "(entry?.value as number | undefined)" : "entry?.value"
        return """
            // The app's main module: what `hybrid run` starts. Hybrid.* reaches the host's services
            // through the bridge; app.json's grants say which ones this app may call.
            import { greeting } from "./greeting.js";

            const device = await Hybrid.call("device", "info");
            const entry = await Hybrid.kv.get({ bucket: "app", key: "visits" });
            const visits = (\(count) ?? 0) + 1;
            await Hybrid.kv.set({ bucket: "app", key: "visits", value: visits });
            console.log(greeting(device.osName, visits));

            """
    }

    static func greeting(typescript: Bool) -> String {
        let signature = typescript ? "greeting(system: string, visits: number): string" : "greeting(system, visits)"
        return """
            /** The line main prints: pure, so that the test can check it without any service. */
            export function \(signature) {
              return `Hello from ${system}: visit number ${visits}`;
            }

            """
    }

    static func test(typescript: Bool) -> String {
        """
        // `hybrid test` finds *.test.\(typescript ? "ts" : "js") files and runs each in a fresh app
        // with a fresh data folder; test, describe and expect are globals, as in Jest.
        import { greeting } from "./greeting.js";

        describe("greeting", () => {
          test("names the system and counts visits", () => {
            expect(greeting("Linux", 2)).toBe("Hello from Linux: visit number 2");
          });
        });

        test("kv keeps what the app stores", async () => {
          await Hybrid.kv.set({ bucket: "app", key: "visits", value: 41 });
          const entry = await Hybrid.kv.get({ bucket: "app", key: "visits" });
          expect(entry?.value).toBe(41);
        });

        """
    }

    static func readme(name: String, ext: String, typescript: Bool) -> String {
        """
        # \(name)

        A HybridHost app. `main.\(ext)` calls the device and kv services; `greeting.\(ext)` is
        plain code it imports; `main.test.\(ext)` tests both.

            hybrid run \(name)     # prints a greeting and counts visits (kept in the app's data folder)
            hybrid test \(name)    # TAP 14 on stdout
        \(typescript ? "\nEditors and `tsc -p \(name)` type-check against `types/hybrid.d.ts`, the JS API as this\nhost's contracts describe it (regenerate with `hybrid contracts dts`), and the web platform's\nglobals the host has (URL, TextDecoder, localStorage, ...). tsconfig.json's `lib` leaves out\n\"DOM\": there is no `document` or `window` here.\n" : "")
        """
    }
}
