#!/bin/bash
# Prints the git send-email command for the aio set; sends nothing.
# Written by lab/post/make-post.sh (make post). git send-email takes the
# recipients of each mail from the To: and Cc: headers of its file (from
# the base tree's scripts/get_maintainer.pl); they are:
#
# 0000-cover-letter.patch
#   To: Alexander Viro <viro@zeniv.linux.org.uk>
#   To: Benjamin LaHaise <bcrl@kvack.org>
#   To: Christian Brauner <brauner@kernel.org>
#   To: Jan Kara <jack@suse.cz>
#   Cc: linux-aio@kvack.org
#   Cc: linux-fsdevel@vger.kernel.org
#   Cc: linux-kernel@vger.kernel.org
# 0001-fs-aio-tell-the-block-plug-how-many-iocbs-io_submit-.patch
#   To: Alexander Viro <viro@zeniv.linux.org.uk>
#   To: Benjamin LaHaise <bcrl@kvack.org>
#   To: Christian Brauner <brauner@kernel.org>
#   To: Jan Kara <jack@suse.cz>
#   Cc: linux-aio@kvack.org
#   Cc: linux-fsdevel@vger.kernel.org
#   Cc: linux-kernel@vger.kernel.org
#
# Review every file, then run the printed command yourself (with
# --dry-run first to see the mails). If git send-email asks "To whom
# should the emails be sent (if anyone)?", press Enter: the headers
# of the files name everyone.
set -eu
dir=$(cd "$(dirname "$0")" && pwd)
files=(
	0000-cover-letter.patch
	0001-fs-aio-tell-the-block-plug-how-many-iocbs-io_submit-.patch
)
printf 'git send-email --confirm=always --thread --no-chain-reply-to'
for f in "${files[@]}"; do printf ' %q' "$dir/$f"; done
printf '\n'
