run --threads 4
