import ScriptSources
import Testing

@Suite struct SourceLanguageTests {
    @Test(arguments: [("a.ts", SourceLanguage.typeScript), ("a.mts", .typeScript), ("a.cts", .typeScript),
                      ("a.js", .javaScript), ("a.mjs", .javaScript), ("a.cjs", .javaScript), ("a.json", .json)])
    func languageFromExtension(filename: String, language: SourceLanguage) {
        #expect(SourceLanguage(filename: filename) == language)
    }
}
