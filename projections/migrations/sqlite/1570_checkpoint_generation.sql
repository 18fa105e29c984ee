-- Which rows a checkpoint stands for: moved by every swap of rebuilt rows into a projection's
-- tables, whose position stays where it was. A projection that keeps what it knows of its rows
-- between its live rounds starts again from the tables when it finds it moved.
alter table projection_checkpoints add column generation bigint not null default 0;
