dis --desugar
