run --max-heap 256M
