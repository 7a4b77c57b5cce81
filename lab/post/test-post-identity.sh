#!/bin/bash
# Test of make post's identity rule (lab/post/make-post.sh --check-identity,
# lab/post/sign_posting.py): it must refuse the repository's own identity,
# an empty one and addresses mail cannot reach, saying why and how to set
# one; and a signed posting must carry the poster in From: and
# Signed-off-by: with no trace of the repository's identity left.
# Reads patches/mainline/; writes nothing outside a temporary directory.
# Prints one line per case; exit 0 when every case behaves, 1 otherwise.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
. lab/paths.sh
rc=0
first=$(lab_patch_files mainline | sed -n 1p) || { echo "post-identity: no postings in patches/mainline" >&2; exit 1; }
repo_ident=$(sed -n '/^From: /{N;s/\n / /;s/^From: //;s/\n.*//;p;q}' "patches/mainline/$first")
repo_name=${repo_ident%% <*}
repo_email=${repo_ident#*<}
repo_email=${repo_email%%>*}

# refused NAME EMAIL WHAT: make post must exit 1 and name WHAT
refused() {
	local out code
	out=$(GIT_AUTHOR_NAME=$1 GIT_AUTHOR_EMAIL=$2 lab/post/make-post.sh --check-identity 2>&1)
	code=$?
	if [ $code = 1 ] && grep -q -- "$3" <<<"$out" && grep -q 'git config user.email' <<<"$out"; then
		echo "post-identity: '$1 <$2>' refused ($3)"
	else
		echo "post-identity: FAIL: '$1 <$2>' gave exit $code, wanted 1 and '$3':" >&2
		sed 's/^/  /' <<<"$out" >&2
		rc=1
	fi
}
refused "$repo_name" "$repo_email" "repository's own identity"
refused "Somebody Else" "$repo_email" "repository's own identity"
refused "" "" "no name"
refused "A Poster" "poster@example.org" "reserved for examples"
refused "A Poster" "poster@mail.invalid" "reserved for examples"
refused "A Poster" "poster@localhost" "no routable domain"
refused "A Poster" "poster@users.noreply.github.com" "noreply"

# signing: the transform alone (no address here can pass the check
# without being somebody's)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
p=$(dirname "$first")
for f in patches/mainline/"$p"/*.patch; do
	PYTHONDONTWRITEBYTECODE=1 python3 -c '
import sys
sys.path.insert(0, "lab/post")
import sign_posting
text = open(sys.argv[1]).read()
sys.stdout.write(sign_posting.sign(text, "A Poster", "poster@example.org", sys.argv[2], "https://lore.kernel.org/r/v2"))
' "$f" "$repo_ident" >"$tmp/${f##*/}" || { echo "post-identity: FAIL: sign on $f" >&2; rc=1; }
done
if grep -qF "$repo_email" "$tmp"/*.patch; then
	echo "post-identity: FAIL: the repository's address is left in the signed $p:" >&2
	grep -nF "$repo_email" "$tmp"/*.patch | head -n 3 >&2
	rc=1
fi
for f in "$tmp"/*.patch; do
	grep -q '^From: A Poster <poster@example.org>$' "$f" ||
		{ echo "post-identity: FAIL: ${f##*/} has no From: of the poster" >&2; rc=1; }
	case ${f##*/} in 0000-*) continue ;; esac
	[ "$(grep -c '^Signed-off-by: A Poster <poster@example.org>$' "$f")" = 1 ] ||
		{ echo "post-identity: FAIL: ${f##*/} lacks the poster's one Signed-off-by:" >&2; rc=1; }
done
[ $rc = 0 ] && echo "post-identity: $p signed: From: and Signed-off-by: are the poster's, the repository's identity is gone"
exit $rc
