# Homebrew formula for agterm-backup, built from source with cargo. Homebrew reads formulae only from
# taps: packaging/release.sh fills in `url` and `sha256` for a release and writes the copy that goes
# into the tap (agterm-backup/homebrew-tap), from where
#   brew install agterm-backup/tap/agterm-backup          (the release)
#   brew install --HEAD agterm-backup/tap/agterm-backup   (latest main)
# After installing, wire the hooks once:  agterm-backup installer apply
class AgtermBackup < Formula
  desc "Resume AI coding agents in agterm, tmux and zmx panes after a restart"
  homepage "https://github.com/agterm-backup/agterm-backup"
  url "https://github.com/agterm-backup/agterm-backup/releases/download/v0.1.0/agterm-backup-0.1.0.tar.gz"
  # packaging/release.sh writes the real url and checksum of the release tarball.
  sha256 "0000000000000000000000000000000000000000000000000000000000000000"
  license "MIT"
  head "https://github.com/agterm-backup/agterm-backup.git", branch: "main"

  depends_on "rust" => :build

  def install
    system "cargo", "install", *std_cargo_args
    generate_completions_from_executable(bin/"agterm-backup", "completions")
    (man1/"agterm-backup.1").write Utils.safe_popen_read(bin/"agterm-backup", "man")
  end

  def caveats
    <<~EOS
      Wire the capture hook into Claude Code, Codex and agterm's restore denylist:
        agterm-backup installer apply
      After a restart of agterm, bring every agent back with:
        agterm-backup restore
    EOS
  end

  test do
    assert_match version.to_s, shell_output("#{bin}/agterm-backup --version")
    # The hook is silent and exits 0 outside agterm.
    assert_equal "", pipe_output("#{bin}/agterm-backup hook claude", "{}")
    ENV["HOME"] = testpath
    system bin/"agterm-backup", "installer", "apply", "--agents", "claude", "--no-denylist"
    assert_match "hook claude", (testpath/".claude/settings.json").read
  end
end
