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
repo_ident=$(python3 lab/post/sign_posting.py ident "patches/mainline/$first") ||
	{ echo "post-identity: patches/mainline/$first has no From:" >&2; exit 1; }
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

# accepted NAME EMAIL: make post --check-identity must exit 0. These
# fixture identities are nobody's; the rule only reads their form.
accepted() {
	local out code
	out=$(GIT_AUTHOR_NAME=$1 GIT_AUTHOR_EMAIL=$2 lab/post/make-post.sh --check-identity 2>&1)
	code=$?
	if [ $code = 0 ]; then
		echo "post-identity: '$1 <$2>' accepted"
	else
		echo "post-identity: FAIL: '$1 <$2>' refused (exit $code):" >&2
		sed 's/^/  /' <<<"$out" >&2
		rc=1
	fi
}
accepted "Test Poster" "test.poster@lists.linux.dev"
accepted "Zoë Pöster" "zoe.poster@lists.linux.dev"
accepted "Poster, Test" "poster.test@lists.linux.dev"

# signing every posting (cover letters too) under a fixture identity
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
for p in $(lab_postings mainline); do
	python3 lab/post/sign_posting.py sign "Test Poster" "test.poster@lists.linux.dev" \
		"$repo_ident" none "patches/mainline/$p" "$tmp/$p" ||
		{ echo "post-identity: FAIL: signing $p" >&2; rc=1; continue; }
	for f in "$tmp/$p"/*.patch; do
		n=$((n + 1))
		if grep -qF -e "$repo_email" -e "$repo_name" "$f"; then
			echo "post-identity: FAIL: the repository's identity is left in $p/${f##*/}:" >&2
			grep -nF -e "$repo_email" -e "$repo_name" "$f" | head -n 3 >&2
			rc=1
		fi
		# nothing but the identity lines (and the v2 link line) may differ
		other=$(diff "patches/mainline/$p/${f##*/}" "$f" | grep '^[<>]' |
			grep -v -e '^[<>] From: ' -e '^< .*<.*@.*>$' -e '^[<>] Signed-off-by: ' \
				-e '^[<>] .* ([0-9]*):$' -e '^< v2: <lore link of v2>$' || true)
		[ -z "$other" ] || {
			echo "post-identity: FAIL: signing changed more than the identity in $p/${f##*/}:" >&2
			head -n 5 <<<"$other" >&2
			rc=1
		}
		grep -q '^From: Test Poster <test.poster@lists.linux.dev>$' "$f" ||
			{ echo "post-identity: FAIL: $p/${f##*/} has no From: of the poster" >&2; rc=1; }
		case ${f##*/} in
		0000-*) grep -q '^Test Poster ([0-9]*):$' "$f" ||
			{ echo "post-identity: FAIL: $p/${f##*/}: the shortlog does not name the poster" >&2; rc=1; }
			continue ;;
		esac
		[ "$(grep -c '^Signed-off-by: Test Poster <test.poster@lists.linux.dev>$' "$f")" = 1 ] ||
			{ echo "post-identity: FAIL: $p/${f##*/} lacks the poster's one Signed-off-by:" >&2; rc=1; }
	done
done
[ $rc = 0 ] && echo "post-identity: $n files of $(lab_postings mainline | wc -l) postings signed: From:, Signed-off-by: and shortlogs are the poster's, the repository's identity is gone"
exit $rc
