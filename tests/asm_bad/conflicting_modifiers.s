// expect: 2:9: modifier '.ARV' conflicts with '.SYNC'
BAR.SYNC.ARV 0x0 ;
