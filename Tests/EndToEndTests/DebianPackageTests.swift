import Foundation
import Testing

/// `make deb`: the package lintian passes, whose Depends name the package
/// of every library the binary loads, and whose binary runs from the
/// unpacked package with a bare environment (no toolchain on PATH, no
/// Swift library anywhere it looks).
///
/// Not tried here: `apt-get install ./bulwark_….deb` in a clean Debian
/// chroot (debootstrap takes minutes and a mirror; the README says how it
/// was checked by hand). The package is unpacked with `dpkg -x` instead.
@Suite(.serialized) struct DebianPackageTests {
    static func has(_ tool: String) -> Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/" + tool) }

    @Test(.enabled(if: has("lintian") && has("dpkg-shlibdeps"), "lintian or dpkg-dev is not installed (make test-deps installs both)"))
    func theDebianPackage() throws {
        let made = try InstallTests.shell("make --no-print-directory -C \(InstallTests.root.path) deb STATIC_BIN=\(InstallTests.releaseBinary)")
        #expect(made.status == 0, "\(made.stdout)\(made.stderr)")
        let deb = InstallTests.root.path + "/" + (made.stdout.split(separator: "\n").last.map(String.init) ?? "")
        #expect(deb.hasSuffix(".deb") && FileManager.default.fileExists(atPath: deb), "\(made.stdout)")

        // lintian: no error and no warning (information tags are allowed).
        let lint = try InstallTests.shell("lintian --no-tag-display-limit \(deb) 2>/dev/null")
        let tags = lint.stdout.split(separator: "\n").filter { $0.hasPrefix("E:") || $0.hasPrefix("W:") }
        #expect(lint.status == 0 && tags.isEmpty, "\(lint.stdout)")

        let unpacked = FileManager.default.temporaryDirectory.appendingPathComponent("bulwark-deb-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: unpacked) }
        #expect(try InstallTests.shell("dpkg -x \(deb) \(unpacked.path)").status == 0)
        let binary = unpacked.path + "/usr/bin/bulwark"
        let contents = try InstallTests.shell("dpkg-deb -c \(deb) | awk '{ print $6 }'").stdout
        for path in ["./usr/bin/bulwark", "./usr/share/man/man1/bulwark.1.gz", "./usr/share/man/man1/bulwark-doctor.1.gz",
                     "./usr/share/bash-completion/completions/bulwark", "./usr/share/zsh/vendor-completions/_bulwark",
                     "./usr/share/fish/vendor_completions.d/bulwark.fish", "./usr/share/doc/bulwark/copyright",
                     "./usr/share/doc/bulwark/changelog.gz"] {
            #expect(contents.contains(path + "\n"), "the package lacks \(path)")
        }

        // Every library the binary needs is found, none is Swift's, and each
        // one's package is in Depends.
        let libraries = try InstallTests.shell("ldd \(binary)").stdout
        #expect(!libraries.contains("not found") && !libraries.contains("libswift") && !libraries.contains("libFoundation"), "\(libraries)")
        let depends = try InstallTests.shell("dpkg-deb -f \(deb) Depends").stdout
        let named = Set(depends.split(separator: ",").compactMap { $0.split(separator: " ").first.map(String.init) })
        let needed = try InstallTests.shell("objdump -p \(binary) | awk '/NEEDED/ { print $2 }'").stdout.split(separator: "\n")
        #expect(needed.count >= 10)
        for library in needed {
            // Debian 12 has /lib merged into /usr: dpkg knows some paths by one name, some by the other.
            let path = "$(ldconfig -p | awk -v l=\(library) '$1 == l { print $NF; exit }')"
            let owner = try InstallTests.shell("{ dpkg -S \"\(path)\" || dpkg -S \"/usr\(path)\"; } 2>/dev/null | head -1 | cut -d: -f1").stdout
                .trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(named.contains(owner), "\(library) comes from \(owner), not in Depends: \(depends)")
        }

        // It runs as an installed program would, with nothing but /usr/bin and /bin on PATH.
        let home = unpacked.appendingPathComponent("home").path
        let bare = "env -i PATH=/usr/bin:/bin HOME=\(home) LANG=C.UTF-8 \(binary)"
        let version = try InstallTests.shell("\(bare) --version")
        #expect(version.status == 0 && version.stdout.hasPrefix("bulwark "))
        let demo = try InstallTests.shell("\(bare) demo --headless --autoplay instant-strong-password")
        #expect(demo.status == 0, "\(demo.stderr)")
        #expect(demo.stdout == "instant-strong-password: 14 steps played, 4 screens.\n", "\(demo.stdout)")
    }
}
