module burnbox-go

go 1.19
