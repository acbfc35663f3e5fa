"""Does this host serve the same model as its peers? A distribution test across hosts (Gao et al. 2025)."""
