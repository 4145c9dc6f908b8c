// swift-tools-version:6.0
// bulwark: a full-screen terminal password manager.
// No Swift package dependencies: only the toolchain and system C libraries.
import Foundation
import PackageDescription

// `make test` runs one debug build and its tests. From acfd67b7 to
// c8a24940 it ran one release build instead, every module optimised whole:
// 760 to 800 s from a fresh clone, where this takes 555 to 605 (before
// that, a release build beside the debug one compiled every module twice).
// The modules the tests drive, the domain, the upgrades and the screens,
// are optimised file by file even in debug (a change to one is rebuilt in
// seconds, where release optimises each module whole again): their unit
// and screen tests took 398 CPU-seconds unoptimised and take 205 so, the
// whole run 831 and 579, for some 220 s more of build. The tests
// themselves stay unoptimised. make install, make deb and make bench
// build in release.
let optimisedInDebug: [SwiftSetting] = [.unsafeFlags(["-O"], .when(configuration: .debug))]
// The binary needs only the Debian libraries it names: it links the Swift
// runtime and Foundation statically, as `--static-swift-stdlib` would, in
// every build, so that the debug binary make test tests installs into a
// clean Debian root as the release one does. That option compiles every
// module against the static runtime, where Swift Testing is not, so it
// cannot build the tests as well: the static link is asked for here, for
// this binary alone, with the static Foundation's own C parts that its
// modules would have named (lld, which finds them in any order), and
// RELRO with immediate binding.
let staticRuntime: LinkerSetting = .unsafeFlags([
    "-static-stdlib", "-use-ld=lld",
    "-l_FoundationCShims", "-l_FoundationCollections", "-l_FoundationICU", "-lCoreFoundation", "-lswiftSynchronization",
    "-l_CFURLSessionInterface", "-l_CFXMLInterface", "-lxml2",
    "-Xlinker", "-z", "-Xlinker", "relro", "-Xlinker", "-z", "-Xlinker", "now",
])

let package = Package(
    name: "bulwark",
    products: [
        .executable(name: "bulwark", targets: ["bulwark"]),
    ],
    targets: [
        // C: the only place that includes curses.h (wide-character API on).
        .target(name: "CNcurses", linkerSettings: [.linkedLibrary("ncursesw")]),
        // C: process hardening (core dumps off, not dumpable) for the executable.
        .target(name: "CHardening"),
        // C: a QR code read from a PNG or JPEG (libpng, libjpeg-turbo, zbar).
        .target(name: "CQRDecode", linkerSettings: [.linkedLibrary("zbar"), .linkedLibrary("png"), .linkedLibrary("jpeg")]),
        // C data: the floor of every libzxcvbn dictionary word (generated; see its make-word-floors.py).
        .target(name: "CWordFloors", exclude: ["make-word-floors.py"]),
        // C data: the built-in list of common passwords (generated; see its make-common-passwords.py).
        .target(name: "CCommonPasswords", exclude: ["make-common-passwords.py"]),
        // System libraries through module maps.
        .systemLibrary(name: "CSQLite"),
        .systemLibrary(name: "CCrypto"),
        .systemLibrary(name: "CZxcvbn"),
        .systemLibrary(name: "CArgon2"),   // Argon2 for other programs' files (Bitwarden, KeePass)
        .systemLibrary(name: "CZip"),      // libzip: 1Password's 1PUX is a ZIP
        .systemLibrary(name: "CZlib"),     // zlib: KDBX's gzip
        .systemLibrary(name: "CSodium"),   // libsodium: only Salsa20 (KDBX 3.1's inner stream), which OpenSSL lacks
        .systemLibrary(name: "CCbor"),     // libcbor: WebAuthn's attestation objects and COSE keys
        .systemLibrary(name: "CFido2"),    // libfido2: USB security keys
        .systemLibrary(name: "CMalloc"),   // glibc's malloc.h: malloc_trim
        .systemLibrary(name: "CXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),  // libxml2's SAX2: KeePass's XML

        // Assets/ built into the binary by a build-tool plugin.
        .executableTarget(name: "asset-embedder", path: "Sources/AssetEmbedder"),
        .plugin(name: "EmbedAssets", capability: .buildTool(), dependencies: ["asset-embedder"],
                path: "Sources/EmbedAssetsPlugin"),
        .target(name: "BulwarkAssets", plugins: ["EmbedAssets"]),

        // Domain: no terminal, no screens.
        .target(name: "BulwarkCore", dependencies: ["BulwarkAssets", "CSQLite", "CCrypto", "CZxcvbn", "CArgon2", "CZip", "CZlib", "CSodium",
                                                           "CQRDecode", "CCbor", "CFido2", "CMalloc", "CXML2", "CWordFloors", "CCommonPasswords", "CHardening"], swiftSettings: optimisedInDebug),
        // The modification protocol, flow engine and mock service adapters.
        .target(name: "BulwarkUpgrades", dependencies: ["BulwarkAssets", "BulwarkCore"], swiftSettings: optimisedInDebug),
        // Cells, buffers, widgets, screens, State/Action/reduce: renders to a Buffer only.
        .target(name: "BulwarkTUI", dependencies: ["BulwarkCore", "BulwarkUpgrades"], swiftSettings: optimisedInDebug),
        // The ncurses backend and the run loop.
        // The run loop is one thread by design. Swift 6.3's runtime access
        // tracking left its list's head on a finished access of this module
        // (README, known limits) and crashed the next access; the compiler's
        // static exclusivity checks still apply.
        .target(name: "BulwarkTerminal", dependencies: ["BulwarkTUI", "CNcurses", "CHardening"],
                swiftSettings: [.unsafeFlags(["-enforce-exclusivity=unchecked"])]),
        // libcurl: FoundationNetworking's transport (`analyze --online`), named
        // here because the binary links Foundation statically.
        .executableTarget(name: "bulwark",
                          dependencies: ["BulwarkCore", "BulwarkUpgrades", "BulwarkTUI", "BulwarkTerminal", "CHardening"],
                          linkerSettings: [.linkedLibrary("curl"), staticRuntime]),
        // `make bench`: speed and memory figures on a release build.
        .executableTarget(name: "bulwark-bench", dependencies: ["BulwarkCore", "BulwarkUpgrades", "BulwarkTUI", "BulwarkTerminal", "CHardening"]),

        .testTarget(name: "BulwarkCoreTests", dependencies: ["BulwarkCore"], exclude: ["FuzzCorpus", "Fixtures"]),
        .testTarget(name: "BulwarkUpgradesTests", dependencies: ["BulwarkUpgrades", "BulwarkCore", "CFido2"], exclude: ["FuzzCorpus"]),
        .testTarget(name: "BulwarkTUITests", dependencies: ["BulwarkTUI", "BulwarkUpgrades", "BulwarkCore"],
                    exclude: ["__Snapshots__"]),
        .testTarget(name: "EndToEndTests", dependencies: ["CHardening"], exclude: ["Fixtures"]),
    ]
)

// libFuzzer targets exist only when asked for (`make fuzz` sets BULWARK_FUZZ=1
// and builds in .build-fuzz): a fuzz target breaks a plain `swift build`.
if ProcessInfo.processInfo.environment["BULWARK_FUZZ"] == "1" {
    package.targets.append(.executableTarget(name: "bulwark-fuzz", dependencies: ["BulwarkCore", "BulwarkUpgrades"], path: "Sources/Fuzz"))
    // -sanitize=fuzzer reaches every executable, the plugin's tool too, which
    // then cannot link: fuzz builds embed no assets (the checks need none).
    if let assets = package.targets.first(where: { $0.name == "BulwarkAssets" }) {
        assets.plugins = []
        assets.swiftSettings = [.define("BULWARK_NO_EMBEDDED_ASSETS")]
    }
}
