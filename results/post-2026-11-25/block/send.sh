#!/bin/bash
# Prints the git send-email command for the block set; sends nothing.
# Written by lab/post/make-post.sh (make post). git send-email takes the
# recipients of each mail from the To: and Cc: headers of its file (from
# the base tree's scripts/get_maintainer.pl); they are:
#
# 0000-cover-letter.patch
#   To: Damien Le Moal <dlemoal@kernel.org>
#   To: Jens Axboe <axboe@kernel.dk>
#   To: Jonathan Corbet <corbet@lwn.net>
#   To: Randy Dunlap <rdunlap@infradead.org>
#   To: Shuah Khan <shuah@kernel.org>
#   To: Shuah Khan <skhan@linuxfoundation.org>
#   Cc: linux-block@vger.kernel.org
#   Cc: linux-doc@vger.kernel.org
#   Cc: linux-kernel@vger.kernel.org
#   Cc: linux-kselftest@vger.kernel.org
# 0001-selftests-block-add-block-layer-selftests-and-a-nest.patch
#   To: Jens Axboe <axboe@kernel.dk>
#   To: Shuah Khan <shuah@kernel.org>
#   Cc: linux-block@vger.kernel.org
#   Cc: linux-kernel@vger.kernel.org
#   Cc: linux-kselftest@vger.kernel.org
# 0002-block-check-the-newest-plug-request-for-the-plug-flu.patch
#   To: Jens Axboe <axboe@kernel.dk>
#   Cc: linux-block@vger.kernel.org
#   Cc: linux-kernel@vger.kernel.org
# 0003-selftests-block-add-a-plug-flush-size-test.patch
#   To: Jens Axboe <axboe@kernel.dk>
#   To: Shuah Khan <shuah@kernel.org>
#   Cc: linux-block@vger.kernel.org
#   Cc: linux-kernel@vger.kernel.org
#   Cc: linux-kselftest@vger.kernel.org
# 0004-selftests-block-add-plug-merge-tests-for-several-que.patch
#   To: Jens Axboe <axboe@kernel.dk>
#   To: Shuah Khan <shuah@kernel.org>
#   Cc: linux-block@vger.kernel.org
#   Cc: linux-kernel@vger.kernel.org
#   Cc: linux-kselftest@vger.kernel.org
# 0005-block-merge-a-plugged-bio-into-the-newest-request-of.patch
#   To: Jens Axboe <axboe@kernel.dk>
#   Cc: linux-block@vger.kernel.org
#   Cc: linux-kernel@vger.kernel.org
# 0006-selftests-block-guard-the-plug-merge-of-split-bios.patch
#   To: Jens Axboe <axboe@kernel.dk>
#   To: Shuah Khan <shuah@kernel.org>
#   Cc: linux-block@vger.kernel.org
#   Cc: linux-kernel@vger.kernel.org
#   Cc: linux-kselftest@vger.kernel.org
# 0007-Documentation-block-describe-plugging-and-merging-in.patch
#   To: Jens Axboe <axboe@kernel.dk>
#   To: Jonathan Corbet <corbet@lwn.net>
#   To: Randy Dunlap <rdunlap@infradead.org>
#   To: Shuah Khan <skhan@linuxfoundation.org>
#   Cc: linux-block@vger.kernel.org
#   Cc: linux-doc@vger.kernel.org
#   Cc: linux-kernel@vger.kernel.org
# 0008-selftests-block-add-an-io_submit-batch-hint-test.patch
#   To: Jens Axboe <axboe@kernel.dk>
#   To: Shuah Khan <shuah@kernel.org>
#   Cc: linux-block@vger.kernel.org
#   Cc: linux-kernel@vger.kernel.org
#   Cc: linux-kselftest@vger.kernel.org
# 0009-selftests-block-add-nested-plug-tests-for-io_uring-a.patch
#   To: Jens Axboe <axboe@kernel.dk>
#   To: Shuah Khan <shuah@kernel.org>
#   Cc: linux-block@vger.kernel.org
#   Cc: linux-kernel@vger.kernel.org
#   Cc: linux-kselftest@vger.kernel.org
# 0010-Documentation-block-describe-plug-batch-hints-and-ne.patch
#   To: Jens Axboe <axboe@kernel.dk>
#   To: Jonathan Corbet <corbet@lwn.net>
#   To: Randy Dunlap <rdunlap@infradead.org>
#   To: Shuah Khan <skhan@linuxfoundation.org>
#   Cc: linux-block@vger.kernel.org
#   Cc: linux-doc@vger.kernel.org
#   Cc: linux-kernel@vger.kernel.org
# 0011-block-account-flush-requests-cloned-by-stacking-driv.patch
#   To: Jens Axboe <axboe@kernel.dk>
#   Cc: linux-block@vger.kernel.org
#   Cc: linux-kernel@vger.kernel.org
# 0012-selftests-block-add-flush-tests-for-dm-multipath-pat.patch
#   To: Jens Axboe <axboe@kernel.dk>
#   To: Shuah Khan <shuah@kernel.org>
#   Cc: linux-block@vger.kernel.org
#   Cc: linux-kernel@vger.kernel.org
#   Cc: linux-kselftest@vger.kernel.org
# 0013-selftests-block-add-a-flush-test-for-native-NVMe-mul.patch
#   To: Jens Axboe <axboe@kernel.dk>
#   To: Shuah Khan <shuah@kernel.org>
#   Cc: linux-block@vger.kernel.org
#   Cc: linux-kernel@vger.kernel.org
#   Cc: linux-kselftest@vger.kernel.org
# 0014-selftests-block-add-a-queue_rqs-order-test-for-virti.patch
#   To: Jens Axboe <axboe@kernel.dk>
#   To: Shuah Khan <shuah@kernel.org>
#   Cc: linux-block@vger.kernel.org
#   Cc: linux-kernel@vger.kernel.org
#   Cc: linux-kselftest@vger.kernel.org
# 0015-selftests-block-check-that-dm-multipath-sees-BUSY-fr.patch
#   To: Jens Axboe <axboe@kernel.dk>
#   To: Shuah Khan <shuah@kernel.org>
#   Cc: linux-block@vger.kernel.org
#   Cc: linux-kernel@vger.kernel.org
#   Cc: linux-kselftest@vger.kernel.org
# 0016-block-zoned-bound-the-time-one-zone-holds-the-QD1-wr.patch
#   To: Damien Le Moal <dlemoal@kernel.org>
#   To: Jens Axboe <axboe@kernel.dk>
#   Cc: linux-block@vger.kernel.org
#   Cc: linux-kernel@vger.kernel.org
# 0017-selftests-block-add-a-zoned-write-order-test.patch
#   To: Jens Axboe <axboe@kernel.dk>
#   To: Shuah Khan <shuah@kernel.org>
#   Cc: linux-block@vger.kernel.org
#   Cc: linux-kernel@vger.kernel.org
#   Cc: linux-kselftest@vger.kernel.org
# 0018-Documentation-block-describe-write-order-on-zoned-de.patch
#   To: Jens Axboe <axboe@kernel.dk>
#   To: Jonathan Corbet <corbet@lwn.net>
#   To: Randy Dunlap <rdunlap@infradead.org>
#   To: Shuah Khan <skhan@linuxfoundation.org>
#   Cc: linux-block@vger.kernel.org
#   Cc: linux-doc@vger.kernel.org
#   Cc: linux-kernel@vger.kernel.org
# 0019-selftests-block-run-the-dm-multipath-flush-tests-ove.patch
#   To: Jens Axboe <axboe@kernel.dk>
#   To: Shuah Khan <shuah@kernel.org>
#   Cc: linux-block@vger.kernel.org
#   Cc: linux-kernel@vger.kernel.org
#   Cc: linux-kselftest@vger.kernel.org
# 0020-selftests-block-trace-in-a-tracefs-instance-of-each-.patch
#   To: Jens Axboe <axboe@kernel.dk>
#   To: Shuah Khan <shuah@kernel.org>
#   Cc: linux-block@vger.kernel.org
#   Cc: linux-kernel@vger.kernel.org
#   Cc: linux-kselftest@vger.kernel.org
# 0021-selftests-block-skip-the-dm-multipath-tests-while-mu.patch
#   To: Jens Axboe <axboe@kernel.dk>
#   To: Shuah Khan <shuah@kernel.org>
#   Cc: linux-block@vger.kernel.org
#   Cc: linux-kernel@vger.kernel.org
#   Cc: linux-kselftest@vger.kernel.org
# 0022-selftests-block-add-a-FUA-test-for-dm-multipath-path.patch
#   To: Jens Axboe <axboe@kernel.dk>
#   To: Shuah Khan <shuah@kernel.org>
#   Cc: linux-block@vger.kernel.org
#   Cc: linux-kernel@vger.kernel.org
#   Cc: linux-kselftest@vger.kernel.org
# 0023-selftests-block-unload-null_blk-when-a-test-loaded-i.patch
#   To: Jens Axboe <axboe@kernel.dk>
#   To: Shuah Khan <shuah@kernel.org>
#   Cc: linux-block@vger.kernel.org
#   Cc: linux-kernel@vger.kernel.org
#   Cc: linux-kselftest@vger.kernel.org
# 0024-selftests-block-unload-the-dm-md-loop-and-nvmet-modu.patch
#   To: Jens Axboe <axboe@kernel.dk>
#   To: Shuah Khan <shuah@kernel.org>
#   Cc: linux-block@vger.kernel.org
#   Cc: linux-kernel@vger.kernel.org
#   Cc: linux-kselftest@vger.kernel.org
# 0025-selftests-block-check-FUA-after-a-noflush-reload-of-.patch
#   To: Jens Axboe <axboe@kernel.dk>
#   To: Shuah Khan <shuah@kernel.org>
#   Cc: linux-block@vger.kernel.org
#   Cc: linux-kernel@vger.kernel.org
#   Cc: linux-kselftest@vger.kernel.org
#
# Review every file, then run the printed command yourself (with
# --dry-run first to see the mails). If git send-email asks "To whom
# should the emails be sent (if anyone)?", press Enter: the headers
# of the files name everyone.
set -eu
dir=$(cd "$(dirname "$0")" && pwd)
files=(
	0000-cover-letter.patch
	0001-selftests-block-add-block-layer-selftests-and-a-nest.patch
	0002-block-check-the-newest-plug-request-for-the-plug-flu.patch
	0003-selftests-block-add-a-plug-flush-size-test.patch
	0004-selftests-block-add-plug-merge-tests-for-several-que.patch
	0005-block-merge-a-plugged-bio-into-the-newest-request-of.patch
	0006-selftests-block-guard-the-plug-merge-of-split-bios.patch
	0007-Documentation-block-describe-plugging-and-merging-in.patch
	0008-selftests-block-add-an-io_submit-batch-hint-test.patch
	0009-selftests-block-add-nested-plug-tests-for-io_uring-a.patch
	0010-Documentation-block-describe-plug-batch-hints-and-ne.patch
	0011-block-account-flush-requests-cloned-by-stacking-driv.patch
	0012-selftests-block-add-flush-tests-for-dm-multipath-pat.patch
	0013-selftests-block-add-a-flush-test-for-native-NVMe-mul.patch
	0014-selftests-block-add-a-queue_rqs-order-test-for-virti.patch
	0015-selftests-block-check-that-dm-multipath-sees-BUSY-fr.patch
	0016-block-zoned-bound-the-time-one-zone-holds-the-QD1-wr.patch
	0017-selftests-block-add-a-zoned-write-order-test.patch
	0018-Documentation-block-describe-write-order-on-zoned-de.patch
	0019-selftests-block-run-the-dm-multipath-flush-tests-ove.patch
	0020-selftests-block-trace-in-a-tracefs-instance-of-each-.patch
	0021-selftests-block-skip-the-dm-multipath-tests-while-mu.patch
	0022-selftests-block-add-a-FUA-test-for-dm-multipath-path.patch
	0023-selftests-block-unload-null_blk-when-a-test-loaded-i.patch
	0024-selftests-block-unload-the-dm-md-loop-and-nvmet-modu.patch
	0025-selftests-block-check-FUA-after-a-noflush-reload-of-.patch
)
printf 'git send-email --confirm=always --thread --no-chain-reply-to'
for f in "${files[@]}"; do printf ' %q' "$dir/$f"; done
printf '\n'
