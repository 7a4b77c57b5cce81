# a writer stuck in D state: direct write to a suspended dm-linear device
modprobe null_blk nr_devices=1 gb=1 || exit 1
modprobe dm-mod 2>/dev/null
dmsetup create labhang --table "0 2097152 linear /dev/nullb0 0" || exit 1
dmsetup suspend labhang
dd if=/dev/zero of=/dev/dm-0 bs=4k count=1 oflag=direct &
sleep 1000
