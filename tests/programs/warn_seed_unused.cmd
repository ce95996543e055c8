run --seed 3
