import Foundation
import SystemIO
import Testing

@testable import Device

@Suite("locale and language tag")
struct LanguageTagTests {
    @Test("a POSIX locale name becomes a BCP 47 tag", arguments: [
        ("en_US.UTF-8", "en-US"),
        ("de_DE@euro", "de-DE"),
        ("de_DE.ISO-8859-15@euro", "de-DE"),
        ("sr_RS@latin", "sr-Latn-RS"),
        ("sr_RS.UTF-8", "sr-RS"),
        ("uz_UZ@cyrillic", "uz-Cyrl-UZ"),
        ("ca_ES.UTF-8@valencia", "ca-ES-valencia"),
        ("pt_BR", "pt-BR"),
        ("es_419.UTF-8", "es-419"),
        ("ast_ES.UTF-8", "ast-ES"),
        ("fr", "fr"),
        ("EN_us", "en-US"),
        ("zh-TW", "zh-TW"),
        ("iw_IL.UTF-8", "he-IL"),
        ("C", "en-US"),
        ("C.UTF-8", "en-US"),
        ("POSIX", "en-US"),
        ("", "en-US"),
        ("english", "en-US"),
        ("en_USA", "en-US"),
        ("1_2", "en-US"),
    ])
    func tag(locale: String, expected: String) {
        #expect(LanguageTag.from(locale: locale) == expected)
    }

    @Test("the locale is the first non-empty of LC_ALL, LC_MESSAGES and LANG, else C", arguments: [
        (["LC_ALL": "fr_FR", "LC_MESSAGES": "de_DE", "LANG": "it_IT"], "fr_FR"),
        (["LC_ALL": "", "LC_MESSAGES": "de_DE", "LANG": "it_IT"], "de_DE"),
        (["LANG": "it_IT.UTF-8"], "it_IT.UTF-8"),
        (["LC_CTYPE": "ja_JP.UTF-8"], "C"),
        ([:], "C"),
    ])
    func locale(environment: [String: String], expected: String) {
        #expect(LocaleSetting.resolve(environment: { environment[$0] }) == expected)
    }
}

@Suite("os-release")
struct OSReleaseTests {
    @Test("Debian's file gives its name and version")
    func debian() {
        let release = OSRelease.parse("""
            PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"
            NAME="Debian GNU/Linux"
            VERSION_ID="12"
            VERSION="12 (bookworm)"
            ID=debian

            """)
        #expect(release.osName == "Debian GNU/Linux")
        #expect(release.osVersion == "12")
        #expect(release.fields["ID"] == "debian")
    }

    @Test("values are unquoted as a shell would", arguments: [
        (#"NAME="Foo \"Bar\" \\ \$x""#, #"Foo "Bar" \ $x"#),
        (#"NAME="back\slash""#, #"back\slash"#),
        (#"NAME='It''s'"#, "Its"),
        (#"NAME='a \" b'"#, #"a \" b"#),
        ("NAME=bare", "bare"),
        ("NAME=", ""),
        ("  NAME=\"padded\"  ", "padded"),
    ])
    func unquoting(line: String, expected: String) {
        #expect(OSRelease.parse(line).name == expected)
    }

    @Test("comments and malformed lines are skipped")
    func malformed() {
        let release = OSRelease.parse("# NAME=commented\nnot an assignment\nBAD KEY=x\nNAME=Real\n")
        #expect(release.fields == ["NAME": "Real"])
    }

    @Test("PRETTY_NAME stands in for NAME, VERSION and BUILD_ID for VERSION_ID", arguments: [
        ("PRETTY_NAME=\"Pretty OS 3\"\nVERSION=\"3 (Tall)\"", "Pretty OS 3", "3 (Tall)"),
        ("NAME=\"Arch Linux\"\nBUILD_ID=rolling", "Arch Linux", "rolling"),
        ("", "Linux", ""),
    ])
    func fallbacks(text: String, name: String, version: String) {
        let release = OSRelease.parse(text)
        #expect(release.osName == name)
        #expect(release.osVersion == version)
    }
}

@Suite("/proc/meminfo and /proc/uptime")
struct ProcTests {
    @Test("MemTotal and MemAvailable are read in bytes")
    func memory() {
        let memory = MemoryInfo.parse("""
            MemTotal:       24684084 kB
            MemFree:        24079392 kB
            MemAvailable:   24356920 kB
            Buffers:            5924 kB
            Cached:           454644 kB
            HugePages_Total:       0
            Hugepagesize:       2048 kB

            """)
        #expect(memory == MemoryInfo(total: 24_684_084 * 1024, available: 24_356_920 * 1024))
    }

    @Test("without MemAvailable (kernels before 3.14) available is MemFree + Buffers + Cached")
    func memoryOldKernel() {
        let memory = MemoryInfo.parse("MemTotal: 1000 kB\nMemFree: 100 kB\nBuffers: 20 kB\nCached: 300 kB\n")
        #expect(memory == MemoryInfo(total: 1_024_000, available: 420 * 1024))
    }

    @Test("text without MemTotal is not memory information", arguments: ["", "MemFree: 1 kB\n", "garbage"])
    func memoryInvalid(text: String) {
        #expect(MemoryInfo.parse(text) == nil)
    }

    @Test("uptime is the first field of /proc/uptime", arguments: [
        ("287.42 491.56\n", 287.42 as Double?),
        ("0.00 0.00", 0),
        ("", nil),
        ("abc 1", nil),
        ("-1 2", nil),
    ])
    func uptime(text: String, expected: Double?) {
        #expect(Uptime.parse(text) == expected)
    }
}

@Suite("time zone")
struct TimeZoneNameTests {
    @Test("TZ names a zone directly, after a colon or as a zoneinfo path; POSIX rules name none", arguments: [
        ("Europe/Berlin", "Europe/Berlin" as String?),
        (":Europe/Berlin", "Europe/Berlin"),
        ("/usr/share/zoneinfo/America/New_York", "America/New_York"),
        (":/usr/share/zoneinfo/Etc/GMT+5", "Etc/GMT+5"),
        ("UTC", "UTC"),
        ("CET-1CEST,M3.5.0,M10.5.0/3", nil),
        ("", nil),
        ("/etc/localtime", nil),
        ("../../etc/passwd", nil),
    ])
    func fromTZ(value: String, expected: String?) {
        #expect(TimeZoneName.fromTZ(value) == expected)
    }

    @Test("a zone file path gives the zone, without posix/ or right/", arguments: [
        ("/usr/share/zoneinfo/Etc/UTC", "Etc/UTC" as String?),
        ("../usr/share/zoneinfo/posix/Asia/Tokyo", "Asia/Tokyo"),
        ("/usr/share/zoneinfo/right/Europe/Paris", "Europe/Paris"),
        ("/usr/share/zoneinfo/", nil),
        ("/var/db/timezone/localtime", nil),
    ])
    func fromZoneFile(path: String, expected: String?) {
        #expect(TimeZoneName.fromZoneFile(path) == expected)
    }

    @Test("TZ wins, then /etc/timezone, then the /etc/localtime link, then UTC")
    func resolveOrder() throws {
        let etc = FileManager.default.temporaryDirectory.appendingPathComponent("device-tz-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: etc, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: etc) }

        #expect(TimeZoneName.resolve(environment: { _ in nil }, etcDirectory: etc) == "UTC")

        try FileManager.default.createSymbolicLink(atPath: etc + "/localtime", withDestinationPath: "/usr/share/zoneinfo/Asia/Tokyo")
        #expect(TimeZoneName.resolve(environment: { _ in nil }, etcDirectory: etc) == "Asia/Tokyo")

        try "Europe/Paris\n".write(toFile: etc + "/timezone", atomically: false, encoding: .utf8)
        #expect(TimeZoneName.resolve(environment: { _ in nil }, etcDirectory: etc) == "Europe/Paris")

        let tz = ["TZ": ":America/Chicago"]
        #expect(TimeZoneName.resolve(environment: { tz[$0] }, etcDirectory: etc) == "America/Chicago")
        let rule = ["TZ": "CET-1CEST,M3.5.0,M10.5.0/3"]
        #expect(TimeZoneName.resolve(environment: { rule[$0] }, etcDirectory: etc) == "Europe/Paris")
    }
}

@Suite("device id text")
struct DeviceIdentifierTextTests {
    @Test("a fresh id is a lowercase version 4, RFC 9562 variant UUID, different each time")
    func random() {
        let ids = (0..<100).map { _ in DeviceIdentifier.random().description }
        #expect(Set(ids).count == 100)
        for id in ids {
            #expect(id.wholeMatch(of: /[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}/) != nil, "\(id)")
            #expect(DeviceIdentifier(parsing: id)?.description == id)
        }
    }

    @Test("text that is not a UUID is refused", arguments: [
        "", "not a uuid", "0b0e4a4c3f2d4c559a1e6f1e2d3c4b5a", "0b0e4a4c-3f2d-4c55-9a1e-6f1e2d3c4b5", "0b0e4a4c-3f2d-4c55-9a1e-6f1e2d3c4b5g",
        "0b0e4a4c-3f2d-4c55-9a1e-6f1e2d3c4b5a-", "{0b0e4a4c-3f2d-4c55-9a1e-6f1e2d3c4b5a}",
    ])
    func refused(text: String) {
        #expect(DeviceIdentifier(parsing: text) == nil)
    }
}
