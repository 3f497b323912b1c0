// expect: 2:7: unexpected 'junk' after .text
.text junk
