# The lab's layer (tests/lava_lab.py): run once by sh in the throwaway root,
# with this machine's network; "$@" are the packages. The root's
# policy-rc.d keeps every service from starting by itself, so PostgreSQL is
# started by hand before lava-server is installed: lava-server's postinst
# then creates its database and migrates it. PostgreSQL is stopped again
# before the root is packed into the cache.
set -eu
export DEBIAN_FRONTEND=noninteractive
apt="apt-get -y -q --no-install-recommends -o DPkg::Lock::Timeout=600"
apt-get -q update
$apt install postgresql
pg_ctlcluster 15 main start
$apt install "$@"
pg_ctlcluster 15 main stop
apt-get clean
rm -rf /var/lib/apt/lists/*
