"""grove"""
