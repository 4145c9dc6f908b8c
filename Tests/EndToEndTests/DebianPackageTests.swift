import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `make deb`: the package lintian passes, whose Depends name the package
/// of every library the binary loads, and whose binary runs from the
/// unpacked package with a bare environment (no toolchain on PATH, no
/// Swift library anywhere it looks).
///
/// Then `apt-get install ./bulwark_….deb` in a clean Debian root made by
/// debootstrap (no toolchain, nothing but the minimal base), which fetches
/// its Depends from the mirror, and the installed bulwark run there. make
/// test makes that root once, beside its build, as a tarball
/// unpacked afresh for each run (Tests/make-clean-root.sh).
@Suite(.serialized) struct DebianPackageTests {
    static func has(_ tool: String) -> Bool { InstallTests.has(tool) }

    static let mirror = "http://deb.debian.org/debian"
    /// This machine's Debian release (bookworm), for the clean root.
    static var codename: String? {
        let release = (try? String(contentsOfFile: "/etc/os-release", encoding: .utf8)) ?? ""
        return release.split(separator: "\n").first { $0.hasPrefix("VERSION_CODENAME=") }.map { String($0.dropFirst("VERSION_CODENAME=".count)) }
    }
    /// A clean root needs root with the rights to chroot and to mount
    /// /proc (a container without CAP_SYS_ADMIN has not), and the mirror.
    static var cleanRootPossible: Bool {
        guard getuid() == 0, has("debootstrap"), codename != nil else { return false }
        let probe = FileManager.default.temporaryDirectory.appendingPathComponent("bulwark-mount-probe-\(getpid())").path
        let rights = "chroot / true && mkdir -p \(probe) && mount -t proc proc \(probe) && umount \(probe); status=$?; rmdir \(probe) 2>/dev/null; exit $status"
        guard ((try? InstallTests.shell(rights).status) ?? 1) == 0 else { return false }
        return ((try? InstallTests.shell("curl -sfI --max-time 10 \(mirror)/dists/\(codename!)/Release >/dev/null").status) ?? 1) == 0
    }

    /// Builds the package once for both tests.
    static let package: String? = {
        guard let made = try? InstallTests.shell("make --no-print-directory -C \(InstallTests.root.path) deb RELEASE_BIN=\(InstallTests.installedBinary)"),
              made.status == 0, let last = made.stdout.split(separator: "\n").last, last.hasSuffix(".deb") else { return nil }
        return InstallTests.root.path + "/" + last
    }()

    @Test(.enabled(if: cleanRootPossible, "not root with the rights to chroot and mount /proc, no debootstrap (make test-deps installs it), or no Debian mirror reachable"))
    func aCleanDebianInstallsAndRunsIt() throws {
        let deb = try #require(Self.package)
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("bulwark-chroot-\(UUID().uuidString)").path
        var proc = false
        defer {
            // /proc first: nothing under a mounted file system is ever removed.
            if proc { proc = (try? InstallTests.shell("umount \(root)/proc").status) != 0 }
            if !proc { try? FileManager.default.removeItem(atPath: root) }
        }
        func inRoot(_ line: String) throws -> Binary.Result {
            try InstallTests.shell("chroot \(root) /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/tmp LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive sh -c '\(line)'")
        }
        // make test makes the root once beside its build (Tests/make-clean-root.sh); unpacked afresh here.
        let strap: Binary.Result
        if let made = ProcessInfo.processInfo.environment["BULWARK_CLEAN_ROOT"], FileManager.default.fileExists(atPath: made) {
            strap = try InstallTests.shell("mkdir -p \(root) && tar -C \(root) -xf \(made) 2>&1 | tail -3")
        } else {
            strap = try InstallTests.shell("debootstrap --variant=minbase \(Self.codename!) \(root) \(Self.mirror) 2>&1 | tail -3")
        }
        #expect(strap.status == 0 && FileManager.default.fileExists(atPath: root + "/usr/bin/apt-get"), "\(strap.stdout)")
        #expect(try inRoot("dpkg-query -W bulwark 2>&1").status != 0, "the root is not clean: bulwark is installed")
        try FileManager.default.copyItem(atPath: deb, toPath: root + "/tmp/bulwark.deb")
        #expect(try inRoot("command -v swift swiftc").stdout.isEmpty)
        // Without its Recommends (git, for sync only): the Depends alone must make it run.
        let installed = try inRoot("apt-get update -qq && apt-get install -y -qq --no-install-recommends /tmp/bulwark.deb >/dev/null 2>&1 && dpkg -s bulwark | grep ^Status")
        #expect(installed.status == 0 && installed.stdout == "Status: install ok installed\n", "\(installed.stdout)\(installed.stderr)")
        // The Swift runtime reads its arguments from /proc, as on any running system.
        #expect(try InstallTests.shell("mount -t proc proc \(root)/proc").status == 0)
        proc = true
        let version = try inRoot("bulwark --version")
        let expected = try Binary.run(["--version"]).stdout
        #expect(version.status == 0 && version.stdout == expected)
        let demo = try inRoot("cd /tmp && bulwark demo --headless --autoplay instant-strong-password")
        #expect(demo.status == 0 && demo.stdout == "instant-strong-password: 16 steps played, 4 screens.\n", "\(demo.stdout)\(demo.stderr)")
        #expect(try inRoot("man -w bulwark-doctor 2>/dev/null || ls /usr/share/man/man1/bulwark-doctor.1.gz").status == 0)
    }

    @Test(.enabled(if: has("lintian") && has("dpkg-shlibdeps"), "lintian or dpkg-dev is not installed (make test-deps installs both)"))
    func theDebianPackage() throws {
        let deb = try #require(Self.package, "make deb failed")

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
        #expect(demo.stdout == "instant-strong-password: 16 steps played, 4 screens.\n", "\(demo.stdout)")
    }
}
