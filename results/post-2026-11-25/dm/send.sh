#!/bin/bash
# Prints the git send-email command for the dm set; sends nothing.
# Written by lab/post/make-post.sh (make post). git send-email takes the
# recipients of each mail from the To: and Cc: headers of its file (from
# the base tree's scripts/get_maintainer.pl); they are:
#
# 0000-cover-letter.patch
#   To: Alasdair Kergon <agk@redhat.com>
#   To: Benjamin Marzinski <bmarzins@redhat.com>
#   To: Jens Axboe <axboe@kernel.dk>
#   To: Jonathan Corbet <corbet@lwn.net>
#   To: Mike Snitzer <snitzer@kernel.org>
#   To: Mikulas Patocka <mpatocka@redhat.com>
#   To: Randy Dunlap <rdunlap@infradead.org>
#   To: Shuah Khan <skhan@linuxfoundation.org>
#   Cc: dm-devel@lists.linux.dev
#   Cc: linux-block@vger.kernel.org
#   Cc: linux-doc@vger.kernel.org
#   Cc: linux-kernel@vger.kernel.org
# 0001-dm-rq-complete-flushes-that-no-device-of-the-table-c.patch
#   To: Alasdair Kergon <agk@redhat.com>
#   To: Benjamin Marzinski <bmarzins@redhat.com>
#   To: Mike Snitzer <snitzer@kernel.org>
#   To: Mikulas Patocka <mpatocka@redhat.com>
#   Cc: dm-devel@lists.linux.dev
#   Cc: linux-kernel@vger.kernel.org
# 0002-Documentation-block-describe-the-write-cache-of-stac.patch
#   To: Alasdair Kergon <agk@redhat.com>
#   To: Benjamin Marzinski <bmarzins@redhat.com>
#   To: Jens Axboe <axboe@kernel.dk>
#   To: Jonathan Corbet <corbet@lwn.net>
#   To: Mike Snitzer <snitzer@kernel.org>
#   To: Mikulas Patocka <mpatocka@redhat.com>
#   To: Randy Dunlap <rdunlap@infradead.org>
#   To: Shuah Khan <skhan@linuxfoundation.org>
#   Cc: dm-devel@lists.linux.dev
#   Cc: linux-block@vger.kernel.org
#   Cc: linux-doc@vger.kernel.org
#   Cc: linux-kernel@vger.kernel.org
# 0003-dm-table-do-not-report-FUA-when-a-request-based-path.patch
#   To: Alasdair Kergon <agk@redhat.com>
#   To: Benjamin Marzinski <bmarzins@redhat.com>
#   To: Mike Snitzer <snitzer@kernel.org>
#   To: Mikulas Patocka <mpatocka@redhat.com>
#   Cc: dm-devel@lists.linux.dev
#   Cc: linux-kernel@vger.kernel.org
# 0004-Documentation-block-say-when-request-based-dm-report.patch
#   To: Alasdair Kergon <agk@redhat.com>
#   To: Benjamin Marzinski <bmarzins@redhat.com>
#   To: Jens Axboe <axboe@kernel.dk>
#   To: Jonathan Corbet <corbet@lwn.net>
#   To: Mike Snitzer <snitzer@kernel.org>
#   To: Mikulas Patocka <mpatocka@redhat.com>
#   To: Randy Dunlap <rdunlap@infradead.org>
#   To: Shuah Khan <skhan@linuxfoundation.org>
#   Cc: dm-devel@lists.linux.dev
#   Cc: linux-block@vger.kernel.org
#   Cc: linux-doc@vger.kernel.org
#   Cc: linux-kernel@vger.kernel.org
# 0005-dm-update-write-cache-and-FUA-on-a-noflush-reload-of.patch
#   To: Alasdair Kergon <agk@redhat.com>
#   To: Benjamin Marzinski <bmarzins@redhat.com>
#   To: Jens Axboe <axboe@kernel.dk>
#   To: Jonathan Corbet <corbet@lwn.net>
#   To: Mike Snitzer <snitzer@kernel.org>
#   To: Mikulas Patocka <mpatocka@redhat.com>
#   To: Randy Dunlap <rdunlap@infradead.org>
#   To: Shuah Khan <skhan@linuxfoundation.org>
#   Cc: dm-devel@lists.linux.dev
#   Cc: linux-block@vger.kernel.org
#   Cc: linux-doc@vger.kernel.org
#   Cc: linux-kernel@vger.kernel.org
# 0006-Documentation-block-say-what-a-flush-down-one-dm-mul.patch
#   To: Alasdair Kergon <agk@redhat.com>
#   To: Benjamin Marzinski <bmarzins@redhat.com>
#   To: Jens Axboe <axboe@kernel.dk>
#   To: Jonathan Corbet <corbet@lwn.net>
#   To: Mike Snitzer <snitzer@kernel.org>
#   To: Mikulas Patocka <mpatocka@redhat.com>
#   To: Randy Dunlap <rdunlap@infradead.org>
#   To: Shuah Khan <skhan@linuxfoundation.org>
#   Cc: dm-devel@lists.linux.dev
#   Cc: linux-block@vger.kernel.org
#   Cc: linux-doc@vger.kernel.org
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
	0001-dm-rq-complete-flushes-that-no-device-of-the-table-c.patch
	0002-Documentation-block-describe-the-write-cache-of-stac.patch
	0003-dm-table-do-not-report-FUA-when-a-request-based-path.patch
	0004-Documentation-block-say-when-request-based-dm-report.patch
	0005-dm-update-write-cache-and-FUA-on-a-noflush-reload-of.patch
	0006-Documentation-block-say-what-a-flush-down-one-dm-mul.patch
)
printf 'git send-email --confirm=always --thread --no-chain-reply-to'
for f in "${files[@]}"; do printf ' %q' "$dir/$f"; done
printf '\n'
