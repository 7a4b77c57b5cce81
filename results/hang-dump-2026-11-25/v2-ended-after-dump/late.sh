sleep 100
echo slept
