import Foundation
import HostTesting
@testable import SyncAuth
import Testing

@Suite("base64url on bytes")
struct Base64URLTests {
    @Test("every length from 0 to 100 bytes encodes as Foundation's base64 with the URL alphabet and no padding, and decodes back")
    func matchesFoundation() throws {
        var random = SplitMix64(seed: 7515)
        for length in 0...100 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
            let expected = Data(bytes).base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
            let encoded = Base64URL.encode(bytes)
            #expect(encoded == expected, "\(length) bytes")
            #expect(Base64URL.decode(Substring(encoded)) == bytes, "\(length) bytes")
        }
    }

    @Test("text of one character past a whole group, or with a byte outside the alphabet, decodes to nothing",
          arguments: ["A", "AAAAA", "AB+C", "AB/C", "AB=C", "AB C", "ABé"])
    func refused(text: String) {
        #expect(Base64URL.decode(Substring(text)) == nil)
    }
}
