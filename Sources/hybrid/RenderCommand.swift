import ArgumentParser
import Glibc
import JSON
import SystemIO
import Views

/// `hybrid render VIEW.json [--data DATA.json] [--width N] [--colors …]`: prints one frame.
struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Print a JSON-described view as text.",
        discussion: """
            Lays VIEW.json out at --width cells (default: the terminal's columns, else 80) with \
            the data of --data, and prints the frame. Plain text when stdout is not a terminal or \
            with --plain; ANSI styles otherwise or with --ansi, in as many colors as --colors \
            allows (default: from COLORTERM and TERM; NO_COLOR turns color off).
            """
    )

    @Argument(help: "The view: a JSON node tree.")
    var view: String

    @Option(help: "The data its ${path} templates read, as a JSON file.")
    var data: String?

    @Option(help: "Width in cells.")
    var width: Int?

    @Option(help: "Height in cells (default: the content's).")
    var height: Int?

    @Option(help: "Colors: none, 16, 256 or truecolor.")
    var colors: String?

    @Flag(help: "Write ANSI styles even when stdout is not a terminal.")
    var ansi = false

    @Flag(help: "Write plain text even to a terminal.")
    var plain = false

    func validate() throws {
        if let width, !(1...1000).contains(width) { throw ValidationError("--width: expected 1 to 1000 cells, got \(width)") }
        if let height, !(1...1000).contains(height) { throw ValidationError("--height: expected 1 to 1000 cells, got \(height)") }
        if let colors, ColorMode(rawValue: colors) == nil {
            throw ValidationError("--colors: expected one of none, 16, 256, truecolor, got \"\(colors)\"")
        }
        if ansi && plain { throw ValidationError("--ansi and --plain: choose one") }
    }

    func run() throws {
        let viewJSON = try Self.readJSON(view)
        let dataJSON = try data.map(Self.readJSON) ?? .object([:])
        let document: ViewDocument
        do {
            document = try ViewDocument(json: viewJSON, data: dataJSON, width: width ?? Self.terminalColumns() ?? 80, height: height)
        } catch {
            throw CLIFailure(message: "\(view): \(error)", code: 1)
        }
        let tty = isatty(STDOUT_FILENO) == 1
        let styled = ansi || (tty && !plain)
        if styled {
            let mode = colors.flatMap(ColorMode.init(rawValue:)) ?? ColorMode.detect { name in getenv(name).map { String(cString: $0) } }
            print(document.canvas.ansiText(mode), terminator: "")
        } else {
            print(document.canvas.plainText, terminator: "")
        }
    }

    static func readJSON(_ path: String) throws -> JSONValue {
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.bytes(atPath: path)
        } catch {
            throw CLIFailure(message: "\(path): cannot open: \(error.reason)", code: 2)
        }
        do {
            return try JSONParser.parse(bytes)
        } catch {
            throw CLIFailure(message: "\(path): not JSON: \(error)", code: 1)
        }
    }

    static func terminalColumns() -> Int? {
        var size = winsize()
        guard isatty(STDOUT_FILENO) == 1, ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }
}
