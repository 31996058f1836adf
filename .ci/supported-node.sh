# Sourced by .ci/run: put a Node.js that `engines` supports first on PATH. A fresh machine may
# carry an older Node (Debian's images have 20); CI must test on a version the project says it
# supports, so below the floor it takes Node's official build from the npm registry (the
# `node-linux-<arch>` package: a binary shipped inside a registry package, pinned here).
CI_NODE_VERSION=22.23.5

node_is_supported() {
  node -e 'const [major, minor] = process.versions.node.split(".").map(Number);
    process.exit((major === 22 && minor >= 13) || major >= 24 ? 0 : 1)' 2>/dev/null
}

use_supported_node() {
  if node_is_supported; then return 0; fi
  local arch
  case "$(uname -m)" in
    x86_64) arch=x64 ;;
    aarch64 | arm64) arch=arm64 ;;
    *) echo "ci: no Node.js ${CI_NODE_VERSION} package for $(uname -m)"; return 1 ;;
  esac
  local dir
  dir="$(mktemp -d /tmp/cairn-ci-node.XXXXXX)"
  echo "ci: node $(node -v 2>/dev/null || echo missing) is below engines; using Node ${CI_NODE_VERSION} (node-linux-${arch})"
  (cd "$dir" && npm pack --silent "node-linux-${arch}@${CI_NODE_VERSION}" >/dev/null &&
    tar xzf "node-linux-${arch}-${CI_NODE_VERSION}.tgz") || return 1
  export PATH="$dir/package/bin:$PATH"
  node_is_supported
}
