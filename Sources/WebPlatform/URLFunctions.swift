import Engine
import IDNA

/// The native half of `js/web/url.js`: only what needs Unicode data the JS side does not carry.
enum URLFunctions {
    static var natives: [String: NativeFunctionBody] {
        ["domainToASCII": domainToASCII]
    }

    /// `native.domainToASCII(domain)`: UTS #46 ToASCII with the URL Standard's parameters, or null
    /// when it fails. The script calls it only for a domain with a non-ASCII code point or an "xn--"
    /// label; it lowercases the others itself.
    static var domainToASCII: NativeFunctionBody { { args in
        // UTF-16 in and out, as JavaScriptCore and ICU both hold strings: no Swift string between.
        let context = args.context
        return context.withUTF16(of: args[0]) { domain in
            IDNA.domainToASCII(utf16: domain) { ascii in ascii.map { context.string(utf16: $0) } ?? context.null }
        }
    } }
}
