// expect: 2:4: empty modifier in 'BAR'
BAR..SYNC 0x0 ;
