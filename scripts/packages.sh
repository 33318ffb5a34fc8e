# Sourced by the test scripts: installing Debian packages they need.

# Runs a command as root: directly, through sudo, or not at all.
as_root() {
  if [ "$(id -u)" -eq 0 ]; then
    "$@"
  elif command -v sudo >/dev/null 2>&1; then
    sudo "$@"
  else
    return 1
  fi
}

# Installs Debian packages; returns non-zero (and installs nothing) without
# apt-get or a way to be root.
install_packages() {
  command -v apt-get >/dev/null 2>&1 &&
    as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq &&
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}
