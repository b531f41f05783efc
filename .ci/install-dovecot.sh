#!/usr/bin/env bash
# The IMAP server the mailbox tests start (tests/it/inbox.rs): Debian's
# dovecot-imapd, installed with apt-get when missing (CI runs as root).
# The tests run it themselves, as the current user, with their own config
# in a temporary folder; the package's own service is not started.
set -euo pipefail
if [ -x /usr/sbin/dovecot ] && [ -d /usr/lib/dovecot ] && [ -x /usr/lib/dovecot/imap ]; then
    exit 0
fi
echo "installing Debian's dovecot-imapd"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# policy-rc.d keeps the package from starting its system service.
policy=/usr/sbin/policy-rc.d
created=0
if [ ! -e "$policy" ]; then
    printf '#!/bin/sh\nexit 101\n' > "$policy"
    chmod +x "$policy"
    created=1
fi
apt-get install -y -qq --no-install-recommends dovecot-core dovecot-imapd >/dev/null
if [ "$created" = 1 ]; then
    rm -f "$policy"
fi
/usr/sbin/dovecot --version
