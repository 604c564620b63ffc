"""The crawl directory (the contract): its layout, lock, graph, states, labels and paths."""
