#!/bin/bash
# make post: write each posting of patches/mainline/ (the directories its
# order file names, lab/paths.sh) under the poster's own name into
# results/post/<posting>/, with send.sh, which prints the git send-email
# command of that posting. Sends nothing.
#
# The poster is git's author identity where this runs (git var
# GIT_AUTHOR_IDENT: user.name and user.email, or GIT_AUTHOR_NAME and
# GIT_AUTHOR_EMAIL). make post refuses the repository's own identity (the
# one the exported patches carry: it is not a person) and an address mail
# cannot reach (lab/post/sign_posting.py says which), and says how to set
# one. The poster's name replaces the repository's in From: and
# Signed-off-by: of every patch: by sending them, the poster certifies
# the Developer's Certificate of Origin for what they send
# (Documentation/process/submitting-patches.rst). LAB_POST_V2_LINK replaces
# the "<lore link of v2>" placeholder of the cover letters ("none" drops
# the line); make post refuses to write a placeholder that is left.
#
# Before it writes anything, the build matrix must have passed for the
# tree that all postings give applied in order (lab/build/build-matrix.sh
# mainline --stale runs the legs that have not; make post does that).
#
# usage: lab/post/make-post.sh [--check-identity]
#   --check-identity  only check the poster's identity (exit 0 or 1)
# Exit: 0 written; 1 refused or failed (with the reason); 2 bad usage.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/lab/paths.sh"
here=$top/lab/post
b=mainline
patches=$(lab_patches "$b")
tree=$(lab_tree "$b")
out=${LAB_POST_OUT:-$top/results/post}
rel() { echo "${1#"$top"/}"; }
die() { echo "post: $*" >&2; exit 1; }
export LC_ALL=C PYTHONDONTWRITEBYTECODE=1
only_identity=0
case ${1:-} in
'') ;;
--check-identity) only_identity=1 ;;
*) echo "usage: lab/post/make-post.sh [--check-identity]" >&2; exit 2 ;;
esac

[ "$(lab_layout "$b")" = postings ] || die "$(rel "$patches") has no order file: nothing to post"
mapfile -t postings < <(lab_postings "$b")
[ ${#postings[@]} -gt 0 ] || die "$(rel "$patches")/order names no posting"
first=$(lab_patch_files "$b" | sed -n 1p) || die "$(rel "$patches") has no patches (make export writes them)"
# the identity the exported patches carry: the repository's
repo_ident=$(python3 "$here/sign_posting.py" ident "$patches/$first") ||
	die "$(rel "$patches/$first") has no From: header"

ident=$(git -C "$top" var GIT_AUTHOR_IDENT 2>/dev/null) || ident=
name=${ident%% <*}
email=${ident#*<}
email=${email%%>*}
[ -n "$ident" ] || { name=; email=; }
if ! why=$(python3 "$here/sign_posting.py" check "$name" "$email" "$repo_ident" 2>&1); then
	echo "post: refused: $why" >&2
	echo "post: set the identity of the person who posts, with an address that receives the review:" >&2
	echo "post:   git config user.name 'Your Name'; git config user.email you@your.domain" >&2
	echo "post: (or GIT_AUTHOR_NAME and GIT_AUTHOR_EMAIL); you certify the DCO for what you send" >&2
	exit 1
fi
echo "post: poster $name <$email>"
[ $only_identity = 1 ] && exit 0

[ -f "$tree/.git/lab-applied" ] || die "no $(rel "$tree"): run make source first"
base=$(git -C "$tree" rev-parse -q --verify 'refs/tags/base^{commit}') ||
	die "$(rel "$tree") has no tag base: run make source first"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# a snapshot, so that a re-export while this runs cannot mix two versions
cp -r "$patches" "$work/in"
mapfile -t files < <(lab_patch_files "$b" | sed "s|^|$work/in/|")
if [ -z "${LAB_POST_NO_MATRIX:-}" ]; then
	applied=$("$here/series-tree.sh" "$tree" "$base" "$work/applied" "${files[@]}")
	"$top/lab/build/build-matrix.sh" "$b" --check "$applied" >"$work/matrix.txt" ||
		die "the build matrix has not passed for these patches (tree ${applied:0:12}): lab/build/build-matrix.sh $b --stale; make export first if $(rel "$tree") has changes that patches/ lacks"
fi

new=$work/out
mkdir -p "$new"
for p in "${postings[@]}"; do
	python3 "$here/sign_posting.py" sign "$name" "$email" "$repo_ident" \
		"${LAB_POST_V2_LINK:-}" "$work/in/$p" "$new/$p" || die "$p: could not sign"
	{
		echo "#!/bin/bash"
		echo "# Written by make post: prints the command that sends this posting; run"
		echo "# what it prints yourself. To: and Cc: are in each file's headers."
		echo "cd \"\$(dirname \"\$0\")\""
		echo "echo git send-email --confirm=always --suppress-cc=self \\"
		echo "	$(cd "$new/$p" && ls [0-9][0-9][0-9][0-9]-*.patch | xargs)"
	} >"$new/$p/send.sh"
	chmod +x "$new/$p/send.sh"
	n=$(ls "$new/$p"/[0-9][0-9][0-9][0-9]-*.patch | grep -vc /0000-cover-letter.patch || true)
	! grep -q '<lore link of v2>' "$new/$p"/*.patch ||
		die "$p: the v2 link is a placeholder: set LAB_POST_V2_LINK to the lore link of v2 (or none)"
	echo "post: $p: $n patch(es) -> $(rel "$out")/$p/"
done
# nothing of the repository's identity may be left in what is posted
left=$(grep -rlF -e "${repo_ident#*<}" -e "${repo_ident%% <*}" "$new" | head -n 3 || true)
[ -z "$left" ] || die "the repository's identity is left in: $(echo $left)"
cp "$work/in/order" "$new/order"
rm -rf "$out"
mkdir -p "$(dirname "$out")"
mv "$new" "$out"
echo "post: nothing was sent; review $(rel "$out")/, then run each posting's send.sh"
