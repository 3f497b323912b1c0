// expect: 2:10: unterminated string
.section ".text
