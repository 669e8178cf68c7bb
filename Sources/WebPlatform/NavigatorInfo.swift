import Engine
import Glibc
import JSON
import SystemIO

/// What `navigator` tells of the host and the machine (`js/web/navigator.js`), read when the
/// script first loads.
struct NavigatorInfo {
    let options: WebPlatformOptions

    var natives: [String: NativeFunctionBody] {
        ["info": { args in args.context.jsValue(from: info()) }]
    }

    /// `{userAgent, platform, language, languages, hardwareConcurrency}`.
    func info() -> JSONValue {
        // The same tag as `device.languageTag`: the locale messages are shown in (LC_ALL, then
        // LC_MESSAGES, then LANG), "en-US" for C and POSIX, as node and Deno answer then.
        let language = LanguageTag.from(locale: LocaleSetting.resolve { ProcessEnvironment[$0] })
        return [
            "userAgent": .string(options.userAgent),
            "platform": .string(Self.platform),
            "language": .string(language),
            "languages": .array([.string(language)]),
            "hardwareConcurrency": .number(Double(max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN))))),
        ]
    }

    /// "Linux x86_64": the kernel's name and the machine, as a browser's `navigator.platform`
    /// and node's have it.
    static var platform: String {
        var names = utsname()
        uname(&names)
        let system = withUnsafeBytes(of: &names.sysname) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let machine = withUnsafeBytes(of: &names.machine) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        return "\(system) \(machine)"
    }
}
