dis --desugar --seed 7
